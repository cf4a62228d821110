package org.tropos.common.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;

/**
 * A daemon's key and certificate, kept in its own directory as one file readable by its owner alone
 * ({@code identity.pem}: the private key, the certificate, then the CA chain), so a renewal replaces both in one
 * atomic rename and a crash never leaves a certificate beside another key. Obtained from the CA at first start,
 * read back at every later one, renewed with a new key pair once the renewal window before expiry is reached.
 */
public final class ServiceCertificates {
  static final String IDENTITY_FILE = "identity.pem";

  private final Path dir;
  private final CertificateSubject subject;
  private final X509Settings settings;
  private volatile Identity current;

  /** A private key and the chain that certifies it (the daemon's certificate first, the root last). */
  public record Identity(PrivateKey key, List<X509Certificate> chain) {
    public Identity {
      if (chain.isEmpty()) {
        throw new IllegalArgumentException("an identity needs a certificate");
      }
      chain = List.copyOf(chain);
    }

    public X509Certificate certificate() {
      return chain.get(0);
    }

    public X509Certificate root() {
      return chain.get(chain.size() - 1);
    }
  }

  private ServiceCertificates(Path dir, CertificateSubject subject, X509Settings settings) {
    this.dir = dir;
    this.subject = subject;
    this.settings = settings;
  }

  /**
   * The identity kept in {@code dir}, or a new one signed by {@code signer} when there is none. A kept
   * certificate for another subject (the host, role or cluster changed) is an error, not silently replaced.
   */
  public static ServiceCertificates loadOrObtain(Path dir, CertificateSubject subject, X509Settings settings,
      CertificateSigner signer) throws IOException, GeneralSecurityException {
    ServiceCertificates certificates = new ServiceCertificates(dir, subject, settings);
    Optional<Identity> kept = read(dir.resolve(IDENTITY_FILE));
    if (kept.isPresent()) {
      Optional<CertificateSubject> named = subjectOf(kept.get());
      if (named.isEmpty() || !named.get().equals(subject)) {
        throw new IOException("the certificate in " + dir + " is for " + kept.get().certificate()
            .getSubjectX500Principal() + ", not for " + subject + ": move it away to obtain a new one");
      }
      certificates.current = kept.get();
    } else {
      Files.createDirectories(dir);
      certificates.current = certificates.obtain(signer);
    }
    return certificates;
  }

  /**
   * The identity of daemon {@code role} on {@code host} kept in {@code dir}, or a new one that {@code issuer}
   * signs for its cluster when there is none.
   */
  public static ServiceCertificates join(Path dir, ServiceRole role, String host, X509Settings settings,
      CertificateIssuer issuer) throws IOException, GeneralSecurityException {
    Optional<Identity> kept = read(dir.resolve(IDENTITY_FILE));
    String clusterId = kept.isPresent() ? subjectOf(kept.get()).map(CertificateSubject::clusterId).orElse("?")
        : issuer.clusterId();
    return loadOrObtain(dir, new CertificateSubject(role, host, clusterId), settings, issuer);
  }

  private static Optional<CertificateSubject> subjectOf(Identity identity) throws CertificateEncodingException {
    return CertificateSubject.of(new JcaX509CertificateHolder(identity.certificate()).getSubject());
  }

  /**
   * The key and certificate kept in {@code file} (a user's, from {@code tropos admin cert issue}), for a client;
   * an error if there are none.
   */
  public static ServiceCertificates ofFile(Path file, X509Settings settings) throws IOException,
      GeneralSecurityException {
    Identity kept = read(file).orElseThrow(() -> new IOException(file + " does not exist"));
    CertificateSubject subject = subjectOf(kept).orElseThrow(() -> new IOException("the certificate in " + file
        + " names no role, holder and cluster of Tropos"));
    ServiceCertificates certificates = new ServiceCertificates(file.getParent(), subject, settings);
    certificates.current = kept;
    return certificates;
  }

  /** The file the key and certificate are kept in. */
  public Path file() {
    return dir.resolve(IDENTITY_FILE);
  }

  public Identity identity() {
    return current;
  }

  public CertificateSubject subject() {
    return subject;
  }

  /** Whether {@code now} is within the renewal window before the certificate expires (or past it). */
  public boolean needsRenewal(Instant now) {
    return !now.isBefore(current.certificate().getNotAfter().toInstant().minus(settings.renewGrace()));
  }

  /** Replaces the key and certificate with new ones from {@code signer}; the old stay if signing fails. */
  public Identity renew(CertificateSigner signer) throws IOException, GeneralSecurityException {
    current = obtain(signer);
    return current;
  }

  private Identity obtain(CertificateSigner signer) throws IOException, GeneralSecurityException {
    KeyPair keys = KeyPairs.generate(settings);
    List<X509Certificate> chain = signer.sign(CertificateRequests.create(keys, subject, settings));
    if (chain.isEmpty() || !chain.get(0).getPublicKey().equals(keys.getPublic())) {
      throw new IOException("the CA answered a certificate for another key");
    }
    StringBuilder pem = new StringBuilder(PemFiles.toPem(keys.getPrivate()));
    chain.forEach(c -> pem.append(PemFiles.toPem(c)));
    Path next = dir.resolve(IDENTITY_FILE + ".new");
    Files.deleteIfExists(next);
    PemFiles.writeOwnerOnly(next, pem.toString());
    Files.move(next, dir.resolve(IDENTITY_FILE), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    return new Identity(keys.getPrivate(), chain);
  }

  private static Optional<Identity> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    PrivateKey key = PemFiles.privateKey(pem).orElseThrow(() -> new IOException(file + " holds no private key"));
    List<X509Certificate> chain = PemFiles.certificates(pem);
    if (chain.isEmpty()) {
      throw new IOException(file + " holds no certificate");
    }
    return Optional.of(new Identity(key, chain));
  }
}
