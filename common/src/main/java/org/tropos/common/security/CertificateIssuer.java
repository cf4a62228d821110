package org.tropos.common.security;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/** The CA a daemon joins a cluster through: it names the cluster and signs the daemon's first certificate. */
public interface CertificateIssuer extends CertificateSigner {
  /** The id of the cluster whose CA this is (what a certificate's O must say). */
  String clusterId() throws IOException;

  /** None: a daemon that has no certificate yet fails to start, saying {@code why}. */
  static CertificateIssuer none(String why) {
    return new CertificateIssuer() {
      @Override
      public String clusterId() throws IOException {
        throw new IOException(why);
      }

      @Override
      public List<X509Certificate> sign(PKCS10CertificationRequest request) throws IOException {
        throw new IOException(why);
      }
    };
  }
}
