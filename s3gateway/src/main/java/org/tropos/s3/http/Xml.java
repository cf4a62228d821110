package org.tropos.s3.http;

import java.nio.charset.StandardCharsets;

/** A small writer of S3's XML documents (no schema, no namespaces beyond S3's). */
public final class Xml {
  public static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
  private final StringBuilder out = new StringBuilder(512).append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");

  /** Opens the document's root element in S3's namespace. */
  public static Xml document(String root) {
    Xml xml = new Xml();
    xml.out.append('<').append(root).append(" xmlns=\"").append(S3_NAMESPACE).append("\">");
    return xml;
  }

  /** Opens a root element with no namespace: S3's answer to a form upload (PostResponse) has none. */
  public static Xml plainDocument(String root) {
    return new Xml().open(root);
  }

  public Xml open(String element) {
    out.append('<').append(element).append('>');
    return this;
  }

  /** Opens an element with attributes, given as written ({@code name="value" ...}; the caller escapes them). */
  public Xml openWithAttributes(String element, String attributes) {
    out.append('<').append(element).append(' ').append(attributes).append('>');
    return this;
  }

  public Xml close(String element) {
    out.append("</").append(element).append('>');
    return this;
  }

  /** An element with text content (escaped). */
  public Xml element(String element, Object text) {
    return open(element).text(String.valueOf(text)).close(element);
  }

  public Xml text(String text) {
    out.append(escape(text));
    return this;
  }

  public byte[] bytes() {
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> {
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            b.append("&#").append((int) c).append(';');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
