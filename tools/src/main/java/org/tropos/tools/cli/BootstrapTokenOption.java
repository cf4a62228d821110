package org.tropos.tools.cli;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import picocli.CommandLine.Option;

/**
 * {@code --bootstrap-token}: how a daemon started from the command line gets its first certificate in a secure
 * cluster. SCM signs it for the token, over TLS to the CA the token pins; a daemon that has its certificate
 * already needs no token, and SCM is then not asked.
 */
final class BootstrapTokenOption {
  @Option(names = "--bootstrap-token", defaultValue = "${env:TROPOS_BOOTSTRAP_TOKEN}", description = "One-time"
      + " token for this daemon's first certificate, from `tropos admin cert token --role <role>` (default: the"
      + " TROPOS_BOOTSTRAP_TOKEN environment variable). Needed only at the first start of a secure cluster's daemon.")
  private String token;

  /** The token given, or "" (an SCM joining a secure HA service fetches the CA with it itself). */
  String token() {
    return token == null ? "" : token.strip();
  }

  /** The CA that signs the first certificate of daemon {@code role} of the cluster {@code conf} names. */
  CertificateIssuer issuer(Configuration conf, ServiceRole role) {
    if (token == null || token.isBlank()) {
      return CertificateIssuer.none("the " + role.subjectName() + " has no certificate yet: start it once with"
          + " --bootstrap-token (or TROPOS_BOOTSTRAP_TOKEN), from `tropos admin cert token --role "
          + role.subjectName() + "` run beside SCM");
    }
    return new CertificateIssuer() {
      @Override
      public String clusterId() throws IOException {
        try (ScmChannel scm = pinnedScm(conf)) {
          return new ScmCertificateClient(scm, token).clusterId();
        }
      }

      @Override
      public List<X509Certificate> sign(PKCS10CertificationRequest request) throws IOException {
        try (ScmChannel scm = pinnedScm(conf)) {
          return new ScmCertificateClient(scm, token).sign(request);
        }
      }
    };
  }

  /** SCM's client service, reached over TLS to the CA the token pins. */
  private ScmChannel pinnedScm(Configuration conf) throws IOException {
    String pin = BootstrapTokens.pinnedCa(token).orElseThrow(() -> new IOException("the bootstrap token is"
        + " malformed: mint one with `tropos admin cert token`"));
    return new ScmChannel(ScmAddresses.clientServices(conf), TransportSecurity.pinning(pin));
  }
}
