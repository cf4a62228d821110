package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.SystemClock;

class CertificateAuthorityTest {
  private static final String CLUSTER = "CID-test";
  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final ManualClock clock = new ManualClock();

  @TempDir
  Path dir;

  private PKCS10CertificationRequest request(KeyPair keys, ServiceRole role, String host, String cluster)
      throws Exception {
    return CertificateRequests.create(keys, new CertificateSubject(role, host, cluster), settings);
  }

  @Test
  void initializeMakesARootWhoseKeyOnlyItsOwnerReadsAndNeverReplacesIt() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir, settings, CLUSTER, clock);
    X509Certificate root = ca.root();
    assertEquals(0, root.getBasicConstraints(), "a CA that signs end certificates only");
    root.verify(root.getPublicKey());
    assertEquals(clock.wallTime().plus(settings.caValidity()), root.getNotAfter().toInstant());
    assertEquals(PosixFilePermissions.fromString("rw-------"),
        Files.getPosixFilePermissions(dir.resolve(CertificateAuthority.KEY_FILE)));
    byte[] key = Files.readAllBytes(dir.resolve(CertificateAuthority.KEY_FILE));

    assertThrows(java.io.IOException.class, () -> CertificateAuthority.initialize(dir, settings, CLUSTER, clock));
    assertArrayEquals(key, Files.readAllBytes(dir.resolve(CertificateAuthority.KEY_FILE)), "the key was kept");
    CertificateAuthority loaded = CertificateAuthority.load(dir, settings, CLUSTER, clock);
    assertEquals(root, loaded.root());
    loaded.sign(request(KeyPairs.generate(settings), ServiceRole.OM, "om1.example", CLUSTER))
        .verify(root.getPublicKey());
  }

  @Test
  void aCertificateNamesTheRequestersRoleHostAndClusterAndChainsToTheRoot() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir, settings, CLUSTER, clock);
    KeyPair keys = KeyPairs.generate(settings);
    X509Certificate issued = ca.sign(request(keys, ServiceRole.DATANODE, "dn7.rack2.example", CLUSTER));

    assertEquals(keys.getPublic(), issued.getPublicKey());
    assertEquals(new CertificateSubject(ServiceRole.DATANODE, "dn7.rack2.example", CLUSTER),
        CertificateSubject.of(new JcaX509CertificateHolder(issued).getSubject()).orElseThrow());
    assertEquals(List.of(List.of(2, "dn7.rack2.example")), issued.getSubjectAlternativeNames().stream()
        .map(List::copyOf).toList());
    assertTrue(issued.getExtendedKeyUsage().containsAll(List.of(KeyPurposeId.id_kp_serverAuth.getId(),
        KeyPurposeId.id_kp_clientAuth.getId())), "a server and a client of TLS");
    assertEquals(-1, issued.getBasicConstraints(), "not a CA");
    assertEquals(clock.wallTime().plus(settings.validity()), issued.getNotAfter().toInstant());

    PKIXParameters trust = new PKIXParameters(Set.of(new TrustAnchor(ca.root(), null)));
    trust.setRevocationEnabled(false);
    trust.setDate(Date.from(clock.wallTime()));
    CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509")
        .generateCertPath(List.of(issued)), trust);
  }

  @Test
  void anEcCaSignsEcRequestsAndMismatchedSettingsAreRefused() throws Exception {
    X509Settings ec = X509Settings.from(Configuration.defaults().with(java.util.Map.of("hdds.key.algo", "EC",
        "hdds.key.len", "256", "hdds.x509.signature.algorithm", "SHA256withECDSA")));
    CertificateAuthority ca = CertificateAuthority.initialize(dir, ec, CLUSTER, clock);
    KeyPair keys = KeyPairs.generate(ec);
    ca.sign(CertificateRequests.create(keys, new CertificateSubject(ServiceRole.OM, "om1", CLUSTER), ec))
        .verify(ca.root().getPublicKey());
    assertThrows(org.tropos.common.conf.ConfigException.class, () -> X509Settings.from(Configuration.defaults()
        .with("hdds.key.algo", "EC")), "an EC key of 2048 bits signed with RSA");
  }

  @Test
  void noCertificateOutlivesTheRoot() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir, settings, CLUSTER, clock);
    clock.advance(settings.caValidity().minus(Duration.ofDays(10)));
    X509Certificate issued = ca.sign(request(KeyPairs.generate(settings), ServiceRole.S3G, "s3g", CLUSTER));
    assertEquals(ca.root().getNotAfter(), issued.getNotAfter());
  }

  @Test
  void aRequestThatDoesNotProveItsKeyOrNamesNoRoleHostOrThisClusterIsRefused() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir, settings, CLUSTER, clock);
    KeyPair victim = KeyPairs.generate(settings);
    KeyPair attacker = KeyPairs.generate(settings);
    PKCS10CertificationRequest forged = new JcaPKCS10CertificationRequestBuilder(
        new CertificateSubject(ServiceRole.SCM, "scm1", CLUSTER).toX500Name(), victim.getPublic())
        .build(new JcaContentSignerBuilder(settings.signatureAlgorithm()).build(attacker.getPrivate()));
    assertTrue(assertThrows(RequestRefusedException.class, () -> ca.sign(forged)).getMessage()
        .contains("signature"));

    assertThrows(RequestRefusedException.class, () -> ca.sign(request(attacker, ServiceRole.OM, "om1",
        "CID-other")));
    for (String subject : List.of("CN=om1,OU=administrator,O=" + CLUSTER, "OU=om,O=" + CLUSTER,
        "CN=om1,OU=om,OU=scm,O=" + CLUSTER)) {
      PKCS10CertificationRequest request = new JcaPKCS10CertificationRequestBuilder(new X500Name(subject),
          attacker.getPublic()).build(new JcaContentSignerBuilder(settings.signatureAlgorithm())
              .build(attacker.getPrivate()));
      assertThrows(RequestRefusedException.class, () -> ca.sign(request), subject);
    }
  }

  @Test
  void pemRoundTripsKeepCertificatesAndRequests() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir, settings, CLUSTER, clock);
    PKCS10CertificationRequest request = request(KeyPairs.generate(settings), ServiceRole.OM, "om2", CLUSTER);
    assertEquals(request, PemFiles.request(PemFiles.toPem(request)));
    X509Certificate issued = ca.sign(request);
    assertEquals(List.of(issued, ca.root()), PemFiles.certificates(PemFiles.toPem(issued)
        + PemFiles.toPem(ca.root())));
  }

  /** The certificates authenticate both ends of a real TLS connection; one from another CA is refused. */
  @Test
  void issuedCertificatesAuthenticateBothEndsOfATlsConnection() throws Exception {
    CertificateAuthority ca = CertificateAuthority.initialize(dir, settings, CLUSTER, SystemClock.INSTANCE);
    SSLContext server = tls(ca, ca.root(), ServiceRole.OM, "localhost");
    SSLContext client = tls(ca, ca.root(), ServiceRole.DATANODE, "dn1");
    assertEquals("hello", exchange(server, client));

    CertificateAuthority stranger = CertificateAuthority.initialize(dir.resolve("other"), settings, CLUSTER,
        SystemClock.INSTANCE);
    SSLContext impostor = tls(stranger, ca.root(), ServiceRole.DATANODE, "dn1");
    assertThrows(Exception.class, () -> exchange(server, impostor), "a client certificate of another CA");
  }

  private SSLContext tls(CertificateAuthority ca, X509Certificate trusted, ServiceRole role, String host)
      throws Exception {
    KeyPair keys = KeyPairs.generate(settings);
    X509Certificate certificate = ca.sign(request(keys, role, host, CLUSTER));
    KeyStore identity = KeyStore.getInstance("PKCS12");
    identity.load(null, null);
    identity.setKeyEntry("me", keys.getPrivate(), new char[0], new X509Certificate[] {certificate, ca.root()});
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(identity, new char[0]);
    KeyStore anchors = KeyStore.getInstance("PKCS12");
    anchors.load(null, null);
    anchors.setCertificateEntry("ca", trusted);
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(anchors);
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
  }

  /** Sends "hello" from a client of {@code client} to a server of {@code server} that asks for its certificate. */
  private static String exchange(SSLContext server, SSLContext client) throws Exception {
    try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0, 1,
        InetAddress.getLoopbackAddress())) {
      listener.setNeedClientAuth(true);
      CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
        try (SSLSocket accepted = (SSLSocket) listener.accept(); InputStream in = accepted.getInputStream()) {
          return new String(in.readNBytes(5), java.nio.charset.StandardCharsets.US_ASCII);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
          listener.getLocalPort()); OutputStream out = socket.getOutputStream()) {
        socket.startHandshake();
        out.write("hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        out.flush();
        return received.get(30, TimeUnit.SECONDS);
      } catch (SSLException e) {
        received.handle((r, t) -> null).get(30, TimeUnit.SECONDS);
        throw e;
      }
    }
  }
}
