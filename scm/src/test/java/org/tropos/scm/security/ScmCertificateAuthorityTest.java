package org.tropos.scm.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.GrpcServer;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateRequests;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.KeyPairs;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.RequestRefusedException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.ManualClock;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;
import org.tropos.proto.scm.SignCertificateRequest;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.rpc.ScmSecurityRpc;

/** A daemon's first certificate from SCM's certificate service, for a one-time bootstrap token an operator minted. */
class ScmCertificateAuthorityTest {
  private static final String CLUSTER = "CID-scm";
  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final ManualClock clock = new ManualClock();
  private ScmDb db;
  private ScmCertificateAuthority ca;
  private GrpcServer server;
  private ScmChannel channel;

  @TempDir
  Path dir;

  @BeforeEach
  void start() throws Exception {
    db = ScmDb.open(dir.resolve("scm.db"));
    serve();
  }

  private void serve() throws IOException {
    ca = ScmCertificateAuthority.loadOrCreate(db, dir.resolve("scm-security"), settings, Optional.empty(), CLUSTER,
        clock);
    server = new GrpcServer("scm-security-test", new HostPort("127.0.0.1", 0), 2, List.of(new ScmSecurityRpc(ca,
        Optional.empty(), Optional.empty())));
    server.start();
    channel = new ScmChannel(new HostPort("127.0.0.1", server.port()));
  }

  @AfterEach
  void stop() {
    channel.close();
    server.close();
    db.close();
  }

  /** A token as `tropos admin cert token` mints one: from the operator files SCM wrote. */
  private String token(ServiceRole role, Instant expiry) throws Exception {
    Path files = dir.resolve("scm-security");
    byte[] secret = HexFormat.of().parseHex(Files.readString(files.resolve(ScmCertificateAuthority.SECRET_FILE))
        .strip());
    X509Certificate pinned = PemFiles.certificate(Files.readString(files.resolve(ScmCertificateAuthority.CA_FILE)));
    return new BootstrapTokens(secret).mint(role, expiry, pinned);
  }

  private ServiceCertificates obtain(String name, ServiceRole role, String token) throws Exception {
    return ServiceCertificates.loadOrObtain(dir.resolve(name), new CertificateSubject(role, name, CLUSTER),
        settings, new ScmCertificateClient(channel, token));
  }

  private Instant tomorrow() {
    return clock.wallTime().plus(Duration.ofDays(1));
  }

  @Test
  void aDaemonGetsItsCertificateForATokenOfItsRoleOnce() throws Exception {
    assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(
        dir.resolve("scm-security").resolve(ScmCertificateAuthority.SECRET_FILE)));
    String token = token(ServiceRole.DATANODE, tomorrow());
    ServiceCertificates.Identity dn1 = obtain("dn1", ServiceRole.DATANODE, token).identity();
    dn1.certificate().verify(ca.root().getPublicKey());
    assertEquals(ca.root(), dn1.root());

    IOException replay = assertThrows(IOException.class, () -> obtain("dn2", ServiceRole.DATANODE, token));
    assertTrue(replay.getMessage().contains("used already"), replay.getMessage());
    assertFalse(Files.exists(dir.resolve("dn2").resolve("identity.pem")), "nothing was kept for the refused one");
  }

  @Test
  void aTokenOfAnotherRoleExpiredOrOfAnotherSecretIsRefused() throws Exception {
    assertTrue(assertThrows(IOException.class, () -> obtain("om1", ServiceRole.OM, token(ServiceRole.DATANODE,
        tomorrow()))).getMessage().contains("for a datanode"));
    String expiring = token(ServiceRole.OM, tomorrow());
    clock.advance(Duration.ofDays(1));
    assertTrue(assertThrows(IOException.class, () -> obtain("om1", ServiceRole.OM, expiring)).getMessage()
        .contains("expired"));
    String foreign = new BootstrapTokens(BootstrapTokens.newSecret()).mint(ServiceRole.OM, tomorrow(), ca.root());
    assertTrue(assertThrows(IOException.class, () -> obtain("om1", ServiceRole.OM, foreign)).getMessage()
        .contains("not one this cluster's SCM made"));
    obtain("om1", ServiceRole.OM, token(ServiceRole.OM, tomorrow()));
  }

  /** An operator's CA is SCM's when SCM makes none yet; another one, or a broken pair, is an error, never used. */
  @Test
  void anOperatorsCaSignsInsteadOfAMadeOneAndNeverReplacesOne() throws Exception {
    CertificateAuthority operators = CertificateAuthority.create(settings, "corp", clock);
    SecuritySettings.CaFiles files = caFiles("operator", PemFiles.toPem(operators.root()), operators.keyPem());
    stop();
    db = ScmDb.open(dir.resolve("fresh.db"));
    Path security = dir.resolve("fresh-security");
    ScmCertificateAuthority supplied = ScmCertificateAuthority.loadOrCreate(db, security, settings,
        Optional.of(files), CLUSTER, clock);
    assertEquals(operators.root(), supplied.root());
    assertEquals(PemFiles.toPem(operators.root()), Files.readString(security.resolve(ScmCertificateAuthority
        .CA_FILE)), "clients trust the operator's CA");
    CertificateSubject dn1 = new CertificateSubject(ServiceRole.DATANODE, "dn1", CLUSTER);
    supplied.inProcess().sign(CertificateRequests.create(KeyPairs.generate(settings), dn1, settings)).get(0)
        .verify(operators.root().getPublicKey());

    CertificateAuthority another = CertificateAuthority.create(settings, "other", clock);
    IOException replaced = assertThrows(IOException.class, () -> ScmCertificateAuthority.loadOrCreate(db,
        security, settings, Optional.of(caFiles("another", PemFiles.toPem(another.root()), another.keyPem())),
        CLUSTER, clock));
    assertTrue(replaced.getMessage().contains("not replaced"), replaced.getMessage());
    assertEquals(operators.root(), ScmCertificateAuthority.loadOrCreate(db, security, settings, Optional.of(files),
        CLUSTER, clock).root(), "the same files again are fine");
    db.close();

    KeyPair leafKeys = KeyPairs.generate(settings);
    X509Certificate leaf = supplied.inProcess().sign(CertificateRequests.create(leafKeys, dn1, settings)).get(0);
    Map<String, SecuritySettings.CaFiles> broken = Map.of(
        "is not the key of", caFiles("mismatched", PemFiles.toPem(operators.root()), another.keyPem()),
        "not a CA certificate", caFiles("leaf", PemFiles.toPem(leaf), PemFiles.toPem(leafKeys.getPrivate())));
    for (Map.Entry<String, SecuritySettings.CaFiles> pair : broken.entrySet()) {
      db = ScmDb.open(dir.resolve(pair.getValue().certificate().getFileName() + ".db"));
      IOException refused = assertThrows(IOException.class, () -> ScmCertificateAuthority.loadOrCreate(db,
          security, settings, Optional.of(pair.getValue()), CLUSTER, clock));
      assertTrue(refused.getMessage().contains(pair.getKey()), refused.getMessage());
      assertFalse(ScmCertificateAuthority.exists(db), "no CA was made from " + pair.getValue());
      db.close();
    }
    db = ScmDb.open(dir.resolve("scm.db"));
    serve();
  }

  private SecuritySettings.CaFiles caFiles(String name, String certificatePem, String keyPem) throws IOException {
    Path certificate = dir.resolve(name + ".crt");
    Path key = dir.resolve(name + ".key");
    Files.writeString(certificate, certificatePem);
    Files.writeString(key, keyPem);
    return new SecuritySettings.CaFiles(certificate, key);
  }

  @Test
  void aDaemonTrustsOnlyTheCaItsTokenPins() throws Exception {
    CertificateAuthority other = CertificateAuthority.create(settings, CLUSTER, clock);
    byte[] secret = HexFormat.of().parseHex(Files.readString(dir.resolve("scm-security")
        .resolve(ScmCertificateAuthority.SECRET_FILE)).strip());
    String pinsAnother = new BootstrapTokens(secret).mint(ServiceRole.S3G, tomorrow(), other.root());
    assertTrue(assertThrows(IOException.class, () -> obtain("s3g", ServiceRole.S3G, pinsAnother)).getMessage()
        .contains("pins"));
  }

  @Test
  void aDaemonRenewsItsOwnCertificateAndNoOther() throws Exception {
    CertificateSubject dn1 = new CertificateSubject(ServiceRole.DATANODE, "dn1", CLUSTER);
    KeyPair keys = KeyPairs.generate(settings);
    List<X509Certificate> renewed = ca.renew(CertificateRequests.create(keys, dn1, settings), dn1);
    assertEquals(keys.getPublic(), renewed.get(0).getPublicKey());
    CertificateSubject om = new CertificateSubject(ServiceRole.OM, "dn1", CLUSTER);
    assertThrows(RequestRefusedException.class, () -> ca.renew(CertificateRequests.create(keys, om, settings), dn1),
        "a datanode asking for an OM certificate");
    String csr = PemFiles.toPem(CertificateRequests.create(keys, dn1, settings));
    ScmException anonymous = assertThrows(ScmException.class, () ->
        channel.call(() -> channel.stub(ScmSecurityServiceGrpc::newBlockingStub)
            .signCertificate(SignCertificateRequest.newBuilder().setCsrPem(csr).build())));
    assertEquals(ScmResult.CERTIFICATE_REFUSED, anonymous.result(), "no token and no TLS peer");
  }

  @Test
  void theCaAndUsedTokensOutliveARestart() throws Exception {
    X509Certificate root = ca.root();
    String token = token(ServiceRole.DATANODE, tomorrow());
    obtain("dn1", ServiceRole.DATANODE, token);
    stop();
    db = ScmDb.open(dir.resolve("scm.db"));
    serve();
    assertEquals(root, ca.root());
    assertThrows(IOException.class, () -> obtain("dn9", ServiceRole.DATANODE, token));
    obtain("dn9", ServiceRole.DATANODE, token(ServiceRole.DATANODE, tomorrow()));
  }
}
