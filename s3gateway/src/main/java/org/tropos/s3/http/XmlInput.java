package org.tropos.s3.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads the small XML documents clients send (DeleteObjects, CompleteMultipartUpload), at most {@link #MAX_BYTES},
 * with DTDs and external entities refused.
 */
public final class XmlInput {
  public static final int MAX_BYTES = 2 << 20;

  private XmlInput() {
  }

  /** The document's root element; MalformedXML if it cannot be read. */
  public static Element parse(InputStream body) throws S3Error, IOException {
    return parse(body, S3ErrorCode.MALFORMED_XML);
  }

  /** The document's root element; {@code malformed} (MalformedXML, MalformedACLError) if it cannot be read. */
  public static Element parse(InputStream body, S3ErrorCode malformed) throws S3Error, IOException {
    byte[] bytes = body.readNBytes(MAX_BYTES + 1);
    if (bytes.length > MAX_BYTES) {
      throw malformed.error("The XML you provided is larger than " + MAX_BYTES + " bytes.");
    }
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      factory.setNamespaceAware(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(null);
      return builder.parse(new ByteArrayInputStream(bytes)).getDocumentElement();
    } catch (ParserConfigurationException | SAXException e) {
      throw malformed.error();
    }
  }

  /** The child elements of {@code parent} named {@code name}. */
  public static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  /** The text of the first child element named {@code name} without surrounding white space, or null. */
  public static String text(Element parent, String name) {
    String text = exactText(parent, name);
    return text == null ? null : text.strip();
  }

  /**
   * The text of the first child element named {@code name} exactly as sent, or null: for names and values that
   * white space belongs to (a key may be a single space).
   */
  public static String exactText(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0).getTextContent();
  }
}
