package org.tropos.common.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;

/** ozone.http.policy: HTTPS and HTTP by default in a secure cluster, HTTP alone otherwise; HTTPS needs security. */
class HttpPolicyTest {
  private static HttpPolicy of(Map<String, String> settings) {
    return HttpPolicy.of(Configuration.defaults().with(settings));
  }

  @Test
  void aSecureClusterListensOverBothUnlessTold() {
    assertEquals(HttpPolicy.HTTP_ONLY, of(Map.of()));
    assertEquals(HttpPolicy.HTTP_AND_HTTPS, of(Map.of("ozone.security.enabled", "true")));
    assertEquals(HttpPolicy.HTTPS_ONLY, of(Map.of("ozone.security.enabled", "true", "ozone.http.policy",
        "https_only")));
    assertEquals(HttpPolicy.HTTP_ONLY, of(Map.of("ozone.security.enabled", "true", "ozone.http.policy",
        "HTTP_ONLY")));
  }

  @Test
  void httpsWithoutSecurityOrAnUnknownPolicyIsAClearError() {
    ConfigException noCertificates = assertThrows(ConfigException.class, () -> of(Map.of("ozone.http.policy",
        "HTTPS_ONLY")));
    assertEquals(true, noCertificates.getMessage().contains("ozone.security.enabled"), noCertificates.getMessage());
    assertThrows(RuntimeException.class, () -> of(Map.of("ozone.http.policy", "HTTPS_PLEASE")));
  }
}
