package org.tropos.common.security;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/**
 * The certificate signing requests a daemon sends the CA: its subject, signed with the key it asks a certificate
 * for.
 */
public final class CertificateRequests {
  private CertificateRequests() {
  }

  public static PKCS10CertificationRequest create(KeyPair keys, CertificateSubject subject, X509Settings settings)
      throws GeneralSecurityException {
    try {
      return new JcaPKCS10CertificationRequestBuilder(subject.toX500Name(), keys.getPublic())
          .build(new JcaContentSignerBuilder(settings.signatureAlgorithm()).build(keys.getPrivate()));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot sign a certificate request with " + settings.signatureAlgorithm(),
          e);
    }
  }
}
