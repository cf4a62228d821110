package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.util.ManualClock;

class ServiceCertificatesTest {
  private static final CertificateSubject DATANODE = new CertificateSubject(ServiceRole.DATANODE, "dn1", "CID-t");
  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final ManualClock clock = new ManualClock();

  @TempDir
  Path dir;

  @Test
  void aDaemonObtainsItsCertificateOnceAndReadsItBackAtTheNextStart() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, "CID-t", clock);
    Path mine = dir.resolve("dn1");
    ServiceCertificates first = ServiceCertificates.loadOrObtain(mine, DATANODE, settings, ca.inProcess());
    assertEquals(List.of(ca.root()), first.identity().chain().subList(1, 2));
    first.identity().certificate().verify(ca.root().getPublicKey());
    Path file = mine.resolve("identity.pem");
    assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));

    CertificateSigner never = request -> {
      throw new IOException("a kept certificate needs no signing");
    };
    ServiceCertificates again = ServiceCertificates.loadOrObtain(mine, DATANODE, settings, never);
    assertEquals(first.identity(), again.identity());

    assertThrows(IOException.class, () -> ServiceCertificates.loadOrObtain(mine, new CertificateSubject(
        ServiceRole.OM, "dn1", "CID-t"), settings, ca.inProcess()), "a certificate for another role is kept");
  }

  @Test
  void renewalComesInTheGraceWindowWithANewKeyAndAFailedOneKeepsTheOld() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, "CID-t", clock);
    Path mine = dir.resolve("dn1");
    ServiceCertificates certificates = ServiceCertificates.loadOrObtain(mine, DATANODE, settings, ca.inProcess());
    ServiceCertificates.Identity before = certificates.identity();
    Duration untilGrace = settings.validity().minus(settings.renewGrace());
    assertFalse(certificates.needsRenewal(clock.wallTime().plus(untilGrace).minusSeconds(1)));
    assertTrue(certificates.needsRenewal(clock.wallTime().plus(untilGrace)));

    byte[] kept = Files.readAllBytes(mine.resolve("identity.pem"));
    assertThrows(IOException.class, () -> certificates.renew(request -> {
      throw new IOException("SCM unreachable");
    }));
    assertEquals(before, certificates.identity());
    assertArrayEquals(kept, Files.readAllBytes(mine.resolve("identity.pem")));

    clock.advance(untilGrace);
    ServiceCertificates.Identity renewed = certificates.renew(ca.inProcess());
    assertNotEquals(before.key(), renewed.key());
    assertTrue(renewed.certificate().getNotAfter().after(before.certificate().getNotAfter()));
    assertEquals(renewed, ServiceCertificates.loadOrObtain(mine, DATANODE, settings, ca.inProcess()).identity());
  }
}
