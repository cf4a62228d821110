package org.tropos.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SigV4Test {
  @Test
  void headerValuesAreTrimmedAndTheirInnerRunsOfSpacesFolded() {
    String canonical = SigV4.canonicalRequest("GET", "/", Map.of(), List.of("a", "b"),
        Map.of("a", "  x   y  z ", "b", "plain"), SigV4.EMPTY_SHA256);
    assertEquals("GET\n/\n\na:x y z\nb:plain\n\na;b\n" + SigV4.EMPTY_SHA256, canonical);
  }

  /** botocore sends a non-ASCII value as UTF-8 bytes and signs its text; the server reads one char per byte. */
  @Test
  void aHeaderValueSentAsUtf8IsSignedAsItsText() {
    String readFromTheWire = new String("Hello World\u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        java.nio.charset.StandardCharsets.ISO_8859_1);
    assertEquals("Hello World\u00c3\u00a9", readFromTheWire);
    assertEquals("Hello World\u00e9", SigV4.signedText(readFromTheWire));
    assertEquals("caf\u00e9", SigV4.signedText("caf\u00e9"), "one ISO-8859-1 byte, not UTF-8, is signed as read");
    assertEquals("plain", SigV4.signedText("plain"));
  }
}
