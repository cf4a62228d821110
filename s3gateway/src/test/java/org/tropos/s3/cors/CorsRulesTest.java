package org.tropos.s3.cors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.proto.om.CorsRule;
import org.tropos.s3.error.S3Error;

class CorsRulesTest {
  private static final CorsRule APP = CorsRule.newBuilder().setId("app").addAllowedOrigins("https://*.example.com")
      .addAllowedMethods("GET").addAllowedHeaders("X-Amz-*").build();
  private static final CorsRule ANY = CorsRule.newBuilder().addAllowedOrigins("*").addAllowedMethods("HEAD").build();

  @Test
  void theFirstRuleAllowingOriginMethodAndEveryHeaderAnswers() {
    CorsRules rules = new CorsRules(List.of(APP, ANY));
    assertEquals(APP, rules.match("https://a.example.com", "GET", List.of("x-amz-date")).orElseThrow());
    assertTrue(rules.match("https://a.example.com", "GET", List.of("x-amz-date", "range")).isEmpty());
    assertTrue(rules.match("https://example.org", "GET", List.of()).isEmpty());
    assertEquals(ANY, rules.match("https://example.org", "HEAD", List.of()).orElseThrow());
    assertEquals(List.of("content-type", "x-amz-date"), CorsRules.requestHeaders(" Content-Type,X-Amz-Date ,"));
  }

  @Test
  void aWildcardStandsForAnyRunOfCharactersOnce() {
    assertTrue(CorsRules.matches("https://*.example.com", "https://a.b.example.com"));
    assertFalse(CorsRules.matches("https://*.example.com", "https://example.com"));
    assertTrue(CorsRules.matches("*", "anything"));
    assertFalse(CorsRules.matches("x-amz-*", "content-type"));
  }

  @Test
  void configurationsS3WouldRefuseAreRefused() {
    assertThrows(S3Error.class, () -> CorsRules.check(List.of()));
    assertThrows(S3Error.class, () -> CorsRules.check(List.of(APP.toBuilder().clearAllowedMethods().build())));
    assertThrows(S3Error.class, () -> CorsRules.check(List.of(APP.toBuilder().addAllowedMethods("PATCH").build())));
    assertThrows(S3Error.class, () -> CorsRules.check(List.of(APP.toBuilder().addAllowedOrigins("*.*").build())));
  }
}
