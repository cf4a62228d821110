package org.tropos.common.security;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentVerifierProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;
import org.tropos.common.util.Clock;

/**
 * The cluster's certificate authority: a root key and self-signed certificate made once ({@link #create}; kept
 * by the caller as PEM text, or in files by {@link #initialize}), which then signs the certificate requests of
 * the cluster's daemons. A request is signed only if it proves possession of its key and names a known role, a
 * host and this cluster; the certificate names them, as a server and a client of TLS. Serial numbers are 159
 * random bits, so SCMs that sign independently never repeat one.
 */
public final class CertificateAuthority {
  private static final String USER_NAME = "[A-Za-z0-9._@-]{1,64}";
  /** The bit of {@link X509Certificate#getKeyUsage} that lets a key sign certificates. */
  private static final int KEY_CERT_SIGN = 5;
  static final String CERTIFICATE_FILE = "ca.crt";
  static final String KEY_FILE = "ca.key";

  private final X509Certificate root;
  private final PrivateKey key;
  private final X509Settings settings;
  private final String clusterId;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  private CertificateAuthority(X509Certificate root, PrivateKey key, X509Settings settings, String clusterId,
      Clock clock) {
    this.root = root;
    this.key = key;
    this.settings = settings;
    this.clusterId = clusterId;
    this.clock = clock;
  }

  /** Makes the root key and certificate of cluster {@code clusterId} in {@code dir}; refuses to replace a CA. */
  public static CertificateAuthority initialize(Path dir, X509Settings settings, String clusterId, Clock clock)
      throws IOException, GeneralSecurityException {
    if (Files.exists(dir.resolve(CERTIFICATE_FILE)) || Files.exists(dir.resolve(KEY_FILE))) {
      throw new IOException("a certificate authority exists in " + dir + ": it is not replaced");
    }
    Files.createDirectories(dir);
    CertificateAuthority ca = create(settings, clusterId, clock);
    PemFiles.writeOwnerOnly(dir.resolve(KEY_FILE), ca.keyPem());
    PemFiles.writeCertificates(dir.resolve(CERTIFICATE_FILE), List.of(ca.root));
    return ca;
  }

  /** The CA {@link #initialize} made in {@code dir}, or an operator's PEM files placed there under those names. */
  public static CertificateAuthority load(Path dir, X509Settings settings, String clusterId, Clock clock)
      throws IOException {
    return of(Files.readString(dir.resolve(CERTIFICATE_FILE)), Files.readString(dir.resolve(KEY_FILE)), settings,
        clusterId, clock);
  }

  /** A new CA of cluster {@code clusterId}, held in memory: its key and root are kept by the caller. */
  public static CertificateAuthority create(X509Settings settings, String clusterId, Clock clock)
      throws GeneralSecurityException {
    KeyPair keys = KeyPairs.generate(settings);
    X500Name name = new X500Name("CN=tropos-ca,OU=scm,O=" + clusterId);
    Instant now = clock.wallTime();
    X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(new SecureRandom()),
        Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(settings.caValidity())), name,
        keys.getPublic());
    JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
    try {
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false,
              extensions.createSubjectKeyIdentifier(keys.getPublic()));
    } catch (IOException e) {
      throw new GeneralSecurityException("encoding a certificate extension", e);
    }
    X509Certificate root = sign(builder, keys.getPrivate(), settings);
    return new CertificateAuthority(root, keys.getPrivate(), settings, clusterId, clock);
  }

  /** The CA whose root certificate and private key are these PEM texts. */
  public static CertificateAuthority of(String rootPem, String keyPem, X509Settings settings, String clusterId,
      Clock clock) throws IOException {
    X509Certificate root = PemFiles.certificate(rootPem);
    PrivateKey key = PemFiles.privateKey(keyPem).orElseThrow(() -> new IOException("no PEM private key for the CA"));
    return new CertificateAuthority(root, key, settings, clusterId, clock);
  }

  /**
   * An operator's CA from its PEM files: a CA certificate (basic constraints CA, key usage allowing certificate
   * signing) valid now, whose public key the private key matches, of the key algorithm the cluster signs with.
   */
  public static CertificateAuthority supplied(SecuritySettings.CaFiles files, X509Settings settings, String clusterId,
      Clock clock) throws IOException, GeneralSecurityException {
    CertificateAuthority ca = of(Files.readString(files.certificate()), Files.readString(files.privateKey()),
        settings, clusterId, clock);
    X509Certificate root = ca.root;
    String named = files.certificate().toString();
    if (root.getBasicConstraints() < 0) {
      throw new GeneralSecurityException(named + " is not a CA certificate (its basic constraints say CA:false)");
    }
    boolean[] usage = root.getKeyUsage();
    if (usage != null && !usage[KEY_CERT_SIGN]) {
      throw new GeneralSecurityException(named + " may not sign certificates (its key usage lacks keyCertSign)");
    }
    root.checkValidity(Date.from(clock.wallTime()));
    if (!ca.key.getAlgorithm().equals(settings.keyAlgorithm())) {
      throw new GeneralSecurityException(named + " has an " + ca.key.getAlgorithm() + " key: set hdds.key.algo and"
          + " hdds.x509.signature.algorithm to match it");
    }
    byte[] probe = new byte[32];
    new SecureRandom().nextBytes(probe);
    Signature signer = Signature.getInstance(settings.signatureAlgorithm());
    signer.initSign(ca.key);
    signer.update(probe);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(settings.signatureAlgorithm());
    verifier.initVerify(root.getPublicKey());
    verifier.update(probe);
    if (!verifier.verify(signature)) {
      throw new GeneralSecurityException("the private key in " + files.privateKey() + " is not the key of " + named);
    }
    return ca;
  }

  public String keyPem() {
    return PemFiles.toPem(key);
  }

  public X509Certificate root() {
    return root;
  }

  /** This CA as a daemon in the same process asks it: the certificate, then the root. */
  public CertificateIssuer inProcess() {
    return new CertificateIssuer() {
      @Override
      public String clusterId() {
        return clusterId;
      }

      @Override
      public List<X509Certificate> sign(PKCS10CertificationRequest request) throws IOException {
        try {
          return List.of(CertificateAuthority.this.sign(request), root);
        } catch (RequestRefusedException | GeneralSecurityException e) {
          throw new IOException("the certificate authority refused the request: " + e.getMessage(), e);
        }
      }
    };
  }

  /**
   * Signs {@code request}: a certificate for its key and subject, valid for the configured duration (never past
   * the root's own expiry). Throws {@link RequestRefusedException} for a request that does not prove possession
   * of its key or does not name a role, a host and this cluster.
   */
  public X509Certificate sign(PKCS10CertificationRequest request) throws RequestRefusedException,
      GeneralSecurityException {
    PublicKey publicKey = verified(request);
    CertificateSubject subject = CertificateSubject.of(request.getSubject()).orElseThrow(() ->
        new RequestRefusedException("the request's subject " + request.getSubject() + " does not name one known"
            + " role (OU), a host (CN) and a cluster (O)"));
    if (subject.role() == ServiceRole.USER && !subject.name().matches(USER_NAME)) {
      throw new RequestRefusedException("a user certificate names a user (letters, digits, '.', '_', '@', '-'; at"
          + " most 64), not '" + subject.name() + "'");
    }
    if (!subject.clusterId().equals(clusterId)) {
      throw new RequestRefusedException("the request is for cluster " + subject.clusterId() + ", this CA signs"
          + " for " + clusterId);
    }
    Instant now = clock.wallTime();
    Instant until = now.plus(settings.validity());
    if (until.isAfter(root.getNotAfter().toInstant())) {
      until = root.getNotAfter().toInstant();
    }
    JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
    X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(root, serial(random),
        Date.from(now.minus(Duration.ofMinutes(5))), Date.from(until), subject.toX500Name(), publicKey);
    // A user's certificate authenticates a client only; a daemon's serves its host too.
    boolean user = subject.role() == ServiceRole.USER;
    try {
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(user
              ? new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth}
              : new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
      if (!user) {
        builder.addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(alternativeName(subject.name())));
      }
      builder.addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(root))
          .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(publicKey));
    } catch (IOException e) {
      throw new GeneralSecurityException("encoding a certificate extension", e);
    }
    return sign(builder, key, settings);
  }

  /** The request's public key, once its signature shows the requester holds the private key. */
  private static PublicKey verified(PKCS10CertificationRequest request) throws RequestRefusedException,
      GeneralSecurityException {
    try {
      PublicKey publicKey = new JcaPKCS10CertificationRequest(request).getPublicKey();
      ContentVerifierProvider verifier = new JcaContentVerifierProviderBuilder().build(publicKey);
      if (!request.isSignatureValid(verifier)) {
        throw new RequestRefusedException("the request's signature does not match its public key");
      }
      return publicKey;
    } catch (OperatorCreationException | PKCSException e) {
      throw new RequestRefusedException("the request's signature cannot be checked: " + e.getMessage());
    }
  }

  private static GeneralName alternativeName(String host) {
    boolean address = host.matches("[0-9.]+") || host.contains(":");
    return new GeneralName(address ? GeneralName.iPAddress : GeneralName.dNSName, host);
  }

  private static BigInteger serial(SecureRandom random) {
    return new BigInteger(159, random).add(BigInteger.ONE);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key, X509Settings settings)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter().getCertificate(builder.build(
          new JcaContentSignerBuilder(settings.signatureAlgorithm()).build(key)));
    } catch (OperatorCreationException | CertificateException e) {
      throw new GeneralSecurityException("signing a certificate with " + settings.signatureAlgorithm(), e);
    }
  }
}
