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
}
