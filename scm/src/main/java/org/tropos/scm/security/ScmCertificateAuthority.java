package org.tropos.scm.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.RequestRefusedException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.Clock;
import org.tropos.scm.db.ScmDb;

/**
 * The cluster's CA as SCM keeps it: its root and key, and the bootstrap secret, are rows of SCM's database (so
 * under HA every SCM holds them and a new leader keeps signing), made once with the cluster's identity. For
 * operators SCM also writes {@code ca.crt} and the owner-only {@code bootstrap.secret} to its security directory,
 * from which {@code tropos admin cert token} mints tokens. A first certificate is signed for a valid bootstrap
 * token of the request's role that pins this CA, each token once. An SCM joining an HA service adopts the CA's rows
 * before its Raft group runs ({@link #forJoiningScm}, {@link #adopt}).
 */
public final class ScmCertificateAuthority {
  static final String CA_CERTIFICATE = "ca.certificate";
  static final String CA_KEY = "ca.key";
  static final String BOOTSTRAP_SECRET = "bootstrap.secret";
  private static final String USED_NONCE = "bootstrap.nonce.";
  public static final String CA_FILE = "ca.crt";
  public static final String SECRET_FILE = "bootstrap.secret";

  private final ScmDb db;
  private final CertificateAuthority ca;
  /** The CA's rows, for an SCM joining the service. */
  private final Rows rows;
  /**
   * Nonces of the tokens SCMs joined with, spent in memory: a join is answered by SCMs that do not lead, which
   * cannot write to the replicated database. Tokens for SCMs are short-lived ({@code tropos admin cert token}).
   */
  private final Set<String> joined = new HashSet<>();
  private final BootstrapTokens tokens;
  private final String caFingerprint;
  private final Clock clock;

  /** The rows that make the CA: its root and key as PEM, and the secret bootstrap tokens are minted with. */
  public record Rows(String rootPem, String keyPem, byte[] secret) {
  }

  private ScmCertificateAuthority(ScmDb db, CertificateAuthority ca, Rows rows, BootstrapTokens tokens,
      Clock clock) throws GeneralSecurityException {
    this.db = db;
    this.ca = ca;
    this.rows = rows;
    this.tokens = tokens;
    this.caFingerprint = BootstrapTokens.fingerprint(ca.root());
    this.clock = clock;
  }

  /** Whether the database holds the cluster's CA (under HA: made by a leader, replicated here). */
  public static boolean exists(ScmDb db) throws IOException {
    return db.meta(CA_CERTIFICATE) != null;
  }

  /**
   * The CA the database holds, made now if it holds none (or {@code supplied}'s, the operator's, when given); its
   * public files written to {@code dir}. A CA that exists is never replaced: supplying another one is an error.
   */
  public static ScmCertificateAuthority loadOrCreate(ScmDb db, Path dir, X509Settings settings,
      Optional<SecuritySettings.CaFiles> supplied, String clusterId, Clock clock) throws IOException {
    try {
      return loadOrCreateChecked(db, dir, settings, supplied, clusterId, clock);
    } catch (GeneralSecurityException e) {
      throw new IOException("the cluster's certificate authority cannot be made or read: " + e.getMessage(), e);
    }
  }

  private static ScmCertificateAuthority loadOrCreateChecked(ScmDb db, Path dir, X509Settings settings,
      Optional<SecuritySettings.CaFiles> supplied, String clusterId, Clock clock)
      throws IOException, GeneralSecurityException {
    String rootPem = db.meta(CA_CERTIFICATE);
    if (rootPem != null && supplied.isPresent() && !PemFiles.certificate(rootPem).equals(PemFiles.certificate(
        Files.readString(supplied.get().certificate())))) {
      throw new IOException("SCM's certificate authority exists and is not replaced by "
          + supplied.get().certificate() + ": remove hdds.x509.rootca.* or set them to the CA SCM has (" + CA_FILE
          + " in " + dir + ")");
    }
    if (rootPem == null) {
      CertificateAuthority created = supplied.isPresent() ? CertificateAuthority.supplied(supplied.get(), settings,
          clusterId, clock) : CertificateAuthority.create(settings, clusterId, clock);
      db.putMeta(BOOTSTRAP_SECRET, HexFormat.of().formatHex(BootstrapTokens.newSecret()));
      db.putMeta(CA_KEY, created.keyPem());
      rootPem = PemFiles.toPem(created.root());
      db.putMeta(CA_CERTIFICATE, rootPem);
    }
    Rows rows = new Rows(rootPem, db.meta(CA_KEY), HexFormat.of().parseHex(db.meta(BOOTSTRAP_SECRET)));
    CertificateAuthority ca = CertificateAuthority.of(rows.rootPem(), rows.keyPem(), settings, clusterId, clock);
    writeOperatorFiles(dir, rootPem, rows.secret());
    return new ScmCertificateAuthority(db, ca, rows, new BootstrapTokens(rows.secret()), clock);
  }

  /**
   * Writes the CA's {@code rows}, as another SCM of the service holds them, to this SCM's database: before its Raft
   * group runs, so every SCM of the service holds the same rows.
   */
  public static void adopt(ScmDb db, Rows rows) throws IOException {
    db.putMeta(BOOTSTRAP_SECRET, HexFormat.of().formatHex(rows.secret()));
    db.putMeta(CA_KEY, rows.keyPem());
    db.putMeta(CA_CERTIFICATE, rows.rootPem());
  }

  private static void writeOperatorFiles(Path dir, String rootPem, byte[] secret) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(CA_FILE), rootPem, StandardCharsets.US_ASCII);
    Path secretFile = dir.resolve(SECRET_FILE);
    String hex = HexFormat.of().formatHex(secret);
    if (!Files.exists(secretFile) || !Files.readString(secretFile).strip().equals(hex)) {
      Files.deleteIfExists(secretFile);
      PemFiles.writeOwnerOnly(secretFile, hex + "\n");
    }
  }

  /** The CA as SCM's own daemon asks it, in process, for SCM's certificate. */
  public CertificateIssuer inProcess() {
    return ca.inProcess();
  }

  public X509Certificate root() {
    return ca.root();
  }

  /**
   * Signs {@code request} admitted by {@code token}: minted with this SCM's secret, for the request's role,
   * pinning this CA, not expired and not used before (its nonce is recorded before the certificate is returned).
   */
  public synchronized List<X509Certificate> signFirst(PKCS10CertificationRequest request, String token)
      throws RequestRefusedException, GeneralSecurityException, IOException {
    Optional<CertificateSubject> subject = CertificateSubject.of(request.getSubject());
    BootstrapTokens.Token said = admit(token, subject.map(CertificateSubject::role), request.getSubject()
        .toString());
    X509Certificate certificate = ca.sign(request);
    db.putMeta(USED_NONCE + said.nonce(), said.expiry().toString());
    return List.of(certificate, ca.root());
  }

  /**
   * The CA's rows for an SCM joining the service, admitted by {@code token}: minted with this CA's secret for an
   * SCM, pinning this CA, not expired and not used before.
   */
  public synchronized Rows forJoiningScm(String token) throws RequestRefusedException, IOException {
    BootstrapTokens.Token said = admit(token, Optional.of(ServiceRole.SCM), "an SCM joining the service");
    if (!joined.add(said.nonce())) {
      throw new RequestRefusedException("the bootstrap token was used already");
    }
    return rows;
  }

  /** The token, if this CA made it for {@code role} (what the request is for), unexpired and unused. */
  private BootstrapTokens.Token admit(String token, Optional<ServiceRole> role, String requested)
      throws RequestRefusedException, IOException {
    BootstrapTokens.Token said = tokens.verify(token).orElseThrow(() ->
        new RequestRefusedException("the bootstrap token is not one this cluster's SCM made"));
    if (role.isEmpty() || role.get() != said.role()) {
      throw new RequestRefusedException("the bootstrap token is for a " + said.role().subjectName()
          + ", the request for " + requested);
    }
    if (!said.expiry().isAfter(clock.wallTime())) {
      throw new RequestRefusedException("the bootstrap token expired at " + said.expiry());
    }
    if (!said.caFingerprint().equals(caFingerprint)) {
      throw new RequestRefusedException("the bootstrap token pins another CA");
    }
    if (db.meta(USED_NONCE + said.nonce()) != null) {
      throw new RequestRefusedException("the bootstrap token was used already");
    }
    return said;
  }

  /**
   * Signs a renewal: {@code request} must name exactly the subject of the certificate {@code peer} showed over
   * mutual TLS, so a daemon renews its own identity and no other.
   */
  public List<X509Certificate> renew(PKCS10CertificationRequest request, CertificateSubject peer)
      throws RequestRefusedException, GeneralSecurityException {
    Optional<CertificateSubject> subject = CertificateSubject.of(request.getSubject());
    if (subject.isEmpty() || !subject.get().equals(peer)) {
      throw new RequestRefusedException(peer.role().subjectName() + " " + peer.name() + " may renew only its own"
          + " certificate, not one for " + request.getSubject());
    }
    return List.of(ca.sign(request), ca.root());
  }
}
