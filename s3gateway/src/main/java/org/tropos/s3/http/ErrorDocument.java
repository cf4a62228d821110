package org.tropos.s3.http;

import java.nio.charset.StandardCharsets;

/** S3's error document. */
public final class ErrorDocument {
  public static final String TYPE = "application/xml";
  /** Longest resource path an error document repeats (a key may be 1,024 bytes; a bad request's much more). */
  static final int MAX_RESOURCE = 1100;

  private ErrorDocument() {
  }

  /** The document; the resource (the client's path) is cut to {@link #MAX_RESOURCE} characters. */
  public static byte[] of(String code, String message, String resource, String requestId) {
    String shown = resource.length() <= MAX_RESOURCE ? resource : resource.substring(0, MAX_RESOURCE) + "...";
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + Xml.escape(code) + "</Code><Message>"
        + Xml.escape(message) + "</Message><Resource>" + Xml.escape(shown) + "</Resource><RequestId>"
        + Xml.escape(requestId) + "</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
  }
}
