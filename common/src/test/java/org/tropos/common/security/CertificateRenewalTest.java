package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.util.ManualClock;

class CertificateRenewalTest {
  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final ManualClock clock = new ManualClock();

  @TempDir
  Path dir;

  @Test
  void aCertificateIsRenewedInItsWindowAndAFailureKeepsItForTheNextCheck() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, "CID-r", clock);
    ServiceCertificates certificates = ServiceCertificates.join(dir.resolve("om"), ServiceRole.OM, "om1", settings,
        ca.inProcess());
    ServiceCertificates.Identity first = certificates.identity();
    boolean[] scmUp = {false};
    CertificateSigner signer = request -> {
      if (!scmUp[0]) {
        throw new IOException("SCM unreachable");
      }
      return ca.inProcess().sign(request);
    };
    try (CertificateRenewal renewal = new CertificateRenewal("om", certificates, signer, clock)) {
      clock.advance(settings.validity().minus(settings.renewGrace()).minusMinutes(1));
      assertFalse(renewal.renewIfDue(), "not yet in the renewal window");
      clock.advance(Duration.ofMinutes(1));
      assertFalse(renewal.renewIfDue(), "SCM unreachable");
      assertEquals(first, certificates.identity());
      scmUp[0] = true;
      assertTrue(renewal.renewIfDue());
      assertNotEquals(first.key(), certificates.identity().key());
      assertTrue(certificates.identity().certificate().getNotAfter().after(first.certificate().getNotAfter()));
      assertFalse(renewal.renewIfDue(), "a fresh certificate is not renewed again");
    }
  }
}
