package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.X509Settings;

/**
 * A daemon joins as an operator would let it: `tropos admin cert token` mints a token from SCM's security
 * directory, and the daemon gets its certificate from the running SCM with it, once.
 */
class CertificateBootstrapIT {
  @TempDir
  Path dir;

  @Test
  void aTokenMintedByTheCliGetsOneDaemonItsCertificateFromScm() throws Exception {
    try (MiniCluster cluster = new MiniCluster(dir.resolve("cluster"), 1, 1, Map.of())) {
      Path security = dir.resolve("cluster").resolve("scm").resolve("scm-security");
      String token = TroposCli.run(0, "admin", "cert", "token", "--role", "datanode", "--valid", "10m",
          "--security-dir", security.toString()).strip();
      String clusterId = cluster.cluster().scm().identity().clusterId();
      X509Settings settings = X509Settings.from(Configuration.defaults());
      try (ScmChannel scm = new ScmChannel(cluster.scmClientAddress())) {
        ServiceCertificates.Identity joined = ServiceCertificates.loadOrObtain(dir.resolve("dn-new"),
            new CertificateSubject(ServiceRole.DATANODE, "dn-new.example", clusterId), settings,
            new ScmCertificateClient(scm, token)).identity();
        joined.certificate().verify(PemFiles.certificate(Files.readString(security.resolve("ca.crt")))
            .getPublicKey());

        assertThrows(IOException.class, () -> ServiceCertificates.loadOrObtain(dir.resolve("dn-again"),
            new CertificateSubject(ServiceRole.DATANODE, "dn-again.example", clusterId), settings,
            new ScmCertificateClient(scm, token)), "the token was used");
        assertFalse(Files.exists(dir.resolve("dn-again").resolve("identity.pem")));
      }
    }
  }
}
