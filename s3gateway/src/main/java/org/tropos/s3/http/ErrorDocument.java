package org.tropos.s3.http;

import java.nio.charset.StandardCharsets;

/** S3's error document. */
public final class ErrorDocument {
  public static final String TYPE = "application/xml";

  private ErrorDocument() {
  }

  public static byte[] of(String code, String message, String resource, String requestId) {
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + Xml.escape(code) + "</Code><Message>"
        + Xml.escape(message) + "</Message><Resource>" + Xml.escape(resource) + "</Resource><RequestId>"
        + Xml.escape(requestId) + "</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
  }
}
