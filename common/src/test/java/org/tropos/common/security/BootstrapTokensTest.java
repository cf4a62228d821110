package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.Configuration;
import org.tropos.common.util.ManualClock;

class BootstrapTokensTest {
  private final BootstrapTokens tokens = new BootstrapTokens(BootstrapTokens.newSecret());

  @Test
  void aTokenSaysItsRoleExpiryAndTheCaToTrustAndEachHasItsOwnNonce() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create(X509Settings.from(Configuration.defaults()), "CID-b",
        new ManualClock());
    Instant expiry = Instant.parse("2026-12-01T00:00:00Z");
    String first = tokens.mint(ServiceRole.DATANODE, expiry, ca.root());
    BootstrapTokens.Token said = tokens.verify(first).orElseThrow();
    assertEquals(ServiceRole.DATANODE, said.role());
    assertEquals(expiry, said.expiry());
    assertEquals(BootstrapTokens.fingerprint(ca.root()), said.caFingerprint());
    assertNotEquals(said.nonce(), tokens.verify(tokens.mint(ServiceRole.DATANODE, expiry, ca.root())).orElseThrow()
        .nonce());
  }

  @Test
  void aTokenOfAnotherSecretOrChangedInAnyPartIsNotAToken() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create(X509Settings.from(Configuration.defaults()), "CID-b",
        new ManualClock());
    String token = tokens.mint(ServiceRole.OM, Instant.parse("2026-12-01T00:00:00Z"), ca.root());
    assertTrue(new BootstrapTokens(BootstrapTokens.newSecret()).verify(token).isEmpty());
    String[] parts = token.split("\\.");
    for (String forged : List.of(token.replaceFirst("^om\\.", "scm."), parts[0] + "." + (Long.parseLong(parts[1])
        + 86400) + token.substring(parts[0].length() + parts[1].length() + 1), token.substring(0,
        token.length() - 1), "garbage", "a.b.c.d.e", "")) {
      assertTrue(tokens.verify(forged).isEmpty(), forged);
    }
  }
}
