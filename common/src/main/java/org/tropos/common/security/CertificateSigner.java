package org.tropos.common.security;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/** Where a daemon gets its certificate signed: SCM's certificate authority, over the network or in process. */
@FunctionalInterface
public interface CertificateSigner {
  /** The certificate for {@code request}, followed by the CA certificates it chains to (the root last). */
  List<X509Certificate> sign(PKCS10CertificationRequest request) throws IOException;
}
