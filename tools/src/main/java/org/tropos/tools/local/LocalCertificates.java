package org.tropos.tools.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.rpc.Callers;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.Clock;
import org.tropos.scm.ScmServer;
import org.tropos.scm.security.ScmSecurityFiles;

/**
 * The security material a secure local cluster needs besides what its daemons obtain themselves: a token for each
 * SCM that joins the HA service, and a certificate for the user who started the cluster, who acts as an
 * administrator through the tools and tests and, in a browser, on the web console. All comes from the CA the
 * cluster's SCM holds in this JVM.
 */
final class LocalCertificates {
  /** How long a token an SCM joins the secure HA service with may be used: it is used at once. */
  private static final Duration SCM_JOIN_TOKEN_VALIDITY = Duration.ofMinutes(10);

  private LocalCertificates() {
  }

  static boolean secure(Configuration conf) {
    return conf.get(SecurityKeys.SECURITY_ENABLED);
  }

  /** The cluster's CA in this JVM, where the other daemons get their certificates when the cluster runs secure. */
  static CertificateIssuer issuer(ScmServer serving) {
    return serving.certificateIssuer().orElseGet(() -> CertificateIssuer.none("the cluster's SCM holds no CA: it"
        + " does not run secure"));
  }

  /**
   * A token for an SCM joining the secure HA service, minted from the {@code primordial} SCM's security directory;
   * none when the cluster is not secure. An SCM that holds the CA already (a restart) does not use it.
   */
  static String scmJoinToken(Configuration conf, ScmServer primordial, Clock clock) throws IOException {
    if (!secure(conf)) {
      return "";
    }
    return ScmSecurityFiles.read(primordial.caFile().getParent()).mint(ServiceRole.SCM,
        clock.wallTime().plus(SCM_JOIN_TOKEN_VALIDITY));
  }

  /** The certificate of the user who started the cluster, issued once and kept in {@code dir}. */
  static ServiceCertificates user(Path dir, Configuration conf, CertificateIssuer issuer) throws IOException {
    try {
      return ServiceCertificates.join(dir, ServiceRole.USER, Callers.localUser(), X509Settings.from(conf), issuer);
    } catch (GeneralSecurityException e) {
      throw new IOException("the certificate of user " + Callers.localUser() + " cannot be made: " + e.getMessage(),
          e);
    }
  }

  /** The user's key and certificate as PKCS#12, readable by its owner alone, for a browser to import. */
  static void writeBrowserIdentity(ServiceCertificates.Identity identity, Path file) throws IOException {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("tropos", identity.key(), new char[0], identity.chain().toArray(new Certificate[0]));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      store.store(bytes, new char[0]);
      Files.deleteIfExists(file);
      PemFiles.writeOwnerOnly(file, bytes.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
