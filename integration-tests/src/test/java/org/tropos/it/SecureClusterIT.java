package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.client.internal.ratis.PipelineClient;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.ratis.RaftTls;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateRequests;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.KeyPairs;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.S3Signatures;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Uuids;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.BlockTokenIdentifier;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclIdentity;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.ListVolumesRequest;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.S3User;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.DatanodeAdminRequest;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.proto.scm.DeleteKeyBlocksRequest;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.GetSealingKeyRequest;
import org.tropos.proto.scm.GetSecretKeysRequest;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.ListPipelinesRequest;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineRequest;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.ScmAdminServiceGrpc;
import org.tropos.proto.scm.ScmBlockServiceGrpc;
import org.tropos.proto.scm.ScmDatanodeServiceGrpc;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;
import org.tropos.scm.ScmServer;
import org.tropos.tools.local.KeptPorts;
import org.tropos.tools.local.LocalCluster;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * A cluster run with {@code ozone.security.enabled}: every daemon holds a certificate of SCM's CA, and the gRPC
 * ports speak mutual TLS, over real sockets here (no in-process shortcut). Then the attacks of an outsider and of
 * a daemon gone rogue, each with a real TLS client: each is refused, and nothing changed.
 */
class SecureClusterIT {
  private static final X509Settings X509 = X509Settings.from(Configuration.defaults());

  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static final byte[] DATA = new byte[200_000];
  private final List<ManagedChannel> channels = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    // This class runs in a JVM of its own (reuseForks=false): every call goes over a socket, through TLS.
    System.setProperty(InProcessServers.PROPERTY, "false");
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true"));
    mini.awaitOpenPipelines(1);
    new Random(42).nextBytes(DATA);
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
      client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("bucket").build());
      try (OutputStream out = client.createKey("vol", "bucket", "kept", DATA.length)) {
        out.write(DATA);
      }
    }
  }

  @AfterAll
  static void stop() {
    if (mini != null) {
      mini.close();
    }
    System.clearProperty(InProcessServers.PROPERTY);
  }

  @AfterEach
  void closeChannels() {
    channels.forEach(ManagedChannel::shutdownNow);
  }

  @Test
  void everyDaemonHoldsACertificateOfTheClusterAndDataFlowsOverMutualTls() throws Exception {
    Path cluster = dir.resolve("cluster");
    for (Path identity : List.of(cluster.resolve("scm/scm-security/identity.pem"),
        cluster.resolve("om/om-security/identity.pem"), cluster.resolve("s3g/s3g-security/identity.pem"),
        cluster.resolve("dn1/security/identity.pem"), cluster.resolve("dn3/security/identity.pem"))) {
      assertTrue(Files.exists(identity), identity + " exists");
    }
    assertEquals(3, mini.datanodes().size(), "the datanodes registered over mutual TLS");
    assertArrayEquals(DATA, readKept());
    String conf = mini.clientConfDir(dir.resolve("conf")).toString();
    assertEquals(4, TroposCli.run(0, "admin", "datanode", "list", "--conf", conf).strip().lines().count(),
        "the CLI reaches SCM over TLS: a header and three datanodes");
    assertTrue(TroposCli.run(0, "sh", "key", "list", "/vol/bucket", "--conf", conf).contains("kept"));
  }

  /**
   * SCM's web console (datanodes, pipelines, containers) is served over HTTPS to an administrator's certificate
   * alone: not over plain HTTP, not to a caller without a certificate, nor to another user's or a daemon's;
   * /prom and /health stay open.
   */
  @Test
  void theWebConsoleAnswersOnlyAnAdministratorsCertificateOverHttps() throws Exception {
    ScmServer scm = mini.cluster().scm();
    int https = scm.httpsPort().orElseThrow();
    String http = "http://127.0.0.1:" + scm.httpPort();
    assertEquals(200, status(URI.create(http + "/prom").toURL().openConnection()));
    assertEquals(403, status(URI.create(http + "/api/datanodes").toURL().openConnection()));
    assertEquals(403, status(URI.create(http + "/console.js").toURL().openConnection()));
    javax.net.ssl.SSLContext anonymous = TransportSecurity.trusting(root()).socketContext(ServiceRole.SCM);
    assertEquals(200, status(overHttps(https, "/health", anonymous)));
    assertEquals(403, status(overHttps(https, "/api/datanodes", anonymous)));
    assertEquals(403, status(overHttps(https, "/api/datanodes", as(ServiceRole.USER, "mallory").socketContext(
        ServiceRole.SCM))));
    assertEquals(403, status(overHttps(https, "/console.js", as(ServiceRole.OM, "localhost").socketContext(
        ServiceRole.SCM))));
    // Every daemon's status port listens over HTTPS too (ozone.http.policy defaults to HTTP_AND_HTTPS when secure).
    javax.net.ssl.SSLContext toOm = TransportSecurity.trusting(root()).socketContext(ServiceRole.OM);
    assertEquals(200, status(overHttps(mini.cluster().om().httpsPort().orElseThrow(), "/prom", toOm)));
    javax.net.ssl.SSLContext user = SecuritySettings.userTransport(mini.clientConfig()).socketContext(ServiceRole.SCM);
    java.net.HttpURLConnection datanodes = overHttps(https, "/api/datanodes", user);
    assertEquals(200, status(datanodes));
    try (InputStream body = datanodes.getInputStream()) {
      assertTrue(new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .contains(LocalCluster.datanodeAddress(1)), "the console lists the datanodes");
    }
  }

  private static java.net.HttpURLConnection overHttps(int port, String path, javax.net.ssl.SSLContext context)
      throws Exception {
    javax.net.ssl.HttpsURLConnection connection = (javax.net.ssl.HttpsURLConnection) URI.create("https://127.0.0.1:"
        + port + path).toURL().openConnection();
    connection.setSSLSocketFactory(context.getSocketFactory());
    // The cluster's trust checks the CA and the server's role, not host names (ClusterTrust).
    connection.setHostnameVerifier((host, session) -> true);
    return connection;
  }

  private static int status(java.net.URLConnection connection) throws Exception {
    return ((java.net.HttpURLConnection) connection).getResponseCode();
  }

  @Test
  void noPortAnswersAClientWithoutTls() {
    for (int port : List.of(mini.cluster().scm().clientPort(), mini.cluster().scm().blockPort(),
        mini.cluster().scm().datanodePort())) {
      ManagedChannel plain = keep(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build());
      refused(null, () -> ScmAdminServiceGrpc.newBlockingStub(plain).withDeadlineAfter(10, TimeUnit.SECONDS)
          .getScmInfo(GetScmInfoRequest.getDefaultInstance()));
    }
    ManagedChannel om = keep(NettyChannelBuilder.forAddress("127.0.0.1", mini.cluster().om().port())
        .usePlaintext().build());
    refused(null, () -> OmServiceGrpc.newBlockingStub(om).withDeadlineAfter(10, TimeUnit.SECONDS)
        .listVolumes(ListVolumesRequest.getDefaultInstance()));
  }

  @Test
  void noOneButTheDatanodeItselfRegistersOrReportsForIt() throws Exception {
    List<DatanodeStatus> before = mini.datanodes();
    DatanodeDetails real = before.get(0).getDetails();
    RegisterRequest hijack = RegisterRequest.newBuilder().setDatanode(real.toBuilder().setIpAddress("10.9.9.9"))
        .build();
    int port = mini.cluster().scm().datanodePort();

    ManagedChannel anonymous = channel(port, TransportSecurity.trusting(root()), ServiceRole.SCM);
    refused(Status.Code.UNAUTHENTICATED, () -> register(anonymous, hijack));
    ManagedChannel om = channel(port, as(ServiceRole.OM, "om-rogue"), ServiceRole.SCM);
    refused(Status.Code.PERMISSION_DENIED, () -> register(om, hijack));

    // A datanode of the cluster, gone rogue: it may be no other host, nor take over another host's node id.
    ManagedChannel rogue = channel(port, as(ServiceRole.DATANODE, "127.0.0.99"), ServiceRole.SCM);
    refused(Status.Code.PERMISSION_DENIED, () -> register(rogue, hijack));
    refused(Status.Code.PERMISSION_DENIED, () -> register(rogue, RegisterRequest.newBuilder().setDatanode(real
        .toBuilder().setHostName("127.0.0.99").setIpAddress("127.0.0.99")).build()));
    refused(Status.Code.PERMISSION_DENIED, () -> ScmDatanodeServiceGrpc.newBlockingStub(rogue)
        .withDeadlineAfter(10, TimeUnit.SECONDS).heartbeat(HeartbeatRequest.newBuilder()
            .setDatanodeUuid(real.getUuid()).build()));

    assertEquals(before.stream().map(DatanodeStatus::getDetails).toList(),
        mini.datanodes().stream().map(DatanodeStatus::getDetails).toList(), "SCM's datanodes are as they were");
  }

  @Test
  void onlyAnOmAllocatesOrDeletesBlocksAndAnyCallerFindsContainers() throws Exception {
    List<KeyBlock> blocks;
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      blocks = client.lookupKey("vol", "bucket", "kept").getKey().getBlocksList();
    }
    DeleteKeyBlocksRequest delete = DeleteKeyBlocksRequest.newBuilder().addKeys(KeyBlocks.newBuilder()
        .setKeyId("stolen").addAllBlocks(blocks.stream().map(KeyBlock::getBlockId).toList())).build();
    AllocateBlockRequest allocate = AllocateBlockRequest.newBuilder().setSize(1024)
        .setFactor(ReplicationFactor.THREE).build();
    int port = mini.cluster().scm().blockPort();

    ManagedChannel user = channel(port, TransportSecurity.trusting(root()), ServiceRole.SCM);
    refused(Status.Code.UNAUTHENTICATED, () -> blockStub(user).deleteKeyBlocks(delete));
    for (ServiceRole role : List.of(ServiceRole.DATANODE, ServiceRole.S3G)) {
      ManagedChannel other = channel(port, as(role, "127.0.0.98"), ServiceRole.SCM);
      refused(Status.Code.PERMISSION_DENIED, () -> blockStub(other).deleteKeyBlocks(delete));
      refused(Status.Code.PERMISSION_DENIED, () -> blockStub(other).allocateBlock(allocate));
    }
    assertEquals(1, blockStub(user).getContainers(GetContainersRequest.newBuilder()
        .addContainerIds(blocks.get(0).getBlockId().getContainerId()).build()).getContainersCount(),
        "a user's client finds where a key's container is");
    assertArrayEquals(DATA, readKept());
  }

  @Test
  void noPeerOfAnotherCaAndNoServerOfAnotherRoleIsTrusted() throws Exception {
    CertificateAuthority stranger = CertificateAuthority.initialize(dir.resolve("stranger-ca"), X509,
        mini.cluster().scm().identity().clusterId(), SystemClock.INSTANCE);
    TransportSecurity forged = TransportSecurity.mutual(ServiceCertificates.join(dir.resolve("forged"),
        ServiceRole.DATANODE, "127.0.0.1", X509, stranger.inProcess()));
    ManagedChannel toScm = channel(mini.cluster().scm().datanodePort(), forged, ServiceRole.SCM);
    refused(Status.Code.UNAVAILABLE, () -> register(toScm, RegisterRequest.getDefaultInstance()));

    // A client that means to reach an OM does not take SCM's certificate for one.
    ManagedChannel notAnOm = channel(mini.cluster().scm().clientPort(), TransportSecurity.trusting(root()),
        ServiceRole.OM);
    refused(Status.Code.UNAVAILABLE, () -> ScmAdminServiceGrpc.newBlockingStub(notAnOm)
        .withDeadlineAfter(10, TimeUnit.SECONDS).getScmInfo(GetScmInfoRequest.getDefaultInstance()));
  }

  @Test
  void aDaemonJoinsWithABootstrapTokenOverTlsToTheCaItPins() throws Exception {
    Path security = dir.resolve("cluster/scm/scm-security");
    String token = TroposCli.run(0, "admin", "cert", "token", "--role", "om", "--valid", "10m",
        "--security-dir", security.toString()).strip();
    HostPort scm = mini.scmClientAddress();
    try (ScmChannel pinned = new ScmChannel(List.of(scm), TransportSecurity.pinning(BootstrapTokens.pinnedCa(token)
        .orElseThrow()))) {
      ServiceCertificates joined = ServiceCertificates.join(dir.resolve("om-new"), ServiceRole.OM, "om-new", X509,
          new ScmCertificateClient(pinned, token));
      joined.identity().certificate().verify(root().getPublicKey());
      assertEquals(mini.cluster().scm().identity().clusterId(), joined.subject().clusterId());
    }
    // Pinned to another CA, the daemon does not even finish the TLS handshake with this SCM.
    String otherPin = BootstrapTokens.fingerprint(CertificateAuthority.create(X509, "CID-other",
        SystemClock.INSTANCE).root());
    try (ScmChannel elsewhere = new ScmChannel(List.of(scm), TransportSecurity.pinning(otherPin))) {
      assertThrows(java.io.IOException.class, () -> ServiceCertificates.join(dir.resolve("om-other"),
          ServiceRole.OM, "om-other", X509, new ScmCertificateClient(elsewhere, token)));
    }
  }

  @Test
  void aDaemonRenewsItsOwnCertificateOverMutualTlsAndNoOtherOne() throws Exception {
    TransportSecurity datanode = as(ServiceRole.DATANODE, "127.0.0.97");
    ServiceCertificates certificates = datanode.certificates().orElseThrow();
    ServiceCertificates.Identity before = certificates.identity();
    org.bouncycastle.pkcs.PKCS10CertificationRequest forAnOm = CertificateRequests.create(KeyPairs.generate(X509),
        new CertificateSubject(ServiceRole.OM, "om-x", mini.cluster().scm().identity().clusterId()), X509);
    try (ScmChannel scm = new ScmChannel(List.of(mini.scmClientAddress()), datanode)) {
      certificates.renew(ScmCertificateClient.renewing(scm, root()));
      assertEquals(before.certificate().getSubjectX500Principal(),
          certificates.identity().certificate().getSubjectX500Principal());
      assertTrue(!before.key().equals(certificates.identity().key()), "a new key");
      assertThrows(java.io.IOException.class, () -> ScmCertificateClient.renewing(scm, root()).sign(forAnOm),
          "a datanode renews no certificate for an OM");
    }
    try (ScmChannel anonymous = new ScmChannel(List.of(mini.scmClientAddress()), TransportSecurity.trusting(root()))) {
      assertThrows(java.io.IOException.class, () -> ScmCertificateClient.renewing(anonymous, root()).sign(forAnOm),
          "nothing is renewed for a caller without a certificate");
    }
  }

  @Test
  void theOmsOfAnHaServiceReplicateOverMutualTlsThatAdmitsOnlyOms() throws Exception {
    List<OmService.Node> nodes = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      nodes.add(new OmService.Node("om" + i, new HostPort("127.0.0.1", KeptPorts.pick()),
          new HostPort("127.0.0.1", KeptPorts.pick())));
    }
    Configuration ha = mini.clientConfig().with(new OmService("secureha", nodes).toKeys());
    CertificateIssuer ca = mini.cluster().scm().certificateIssuer().orElseThrow();
    List<OmServer> oms = new java.util.ArrayList<>();
    OmService.Node running;
    try {
      for (int i = 0; i < 3; i++) {
        OmServer om = new OmServer(OmConfig.from(ha.with(Map.of("ozone.om.node.id", "om" + i,
            "ozone.om.db.dirs", dir.resolve("ha-om" + i).toString()))), SystemClock.INSTANCE, ca);
        oms.add(om);
        om.start();
      }
      try (TroposClient client = TroposClient.create(ha)) {
        client.createVolume(VolumeInfo.newBuilder().setName("havol").setOwner("it").build());
        assertEquals("havol", client.getVolume("havol").getName(), "a leader elected and a write replicated");
        // A secret sealed by the leader opens on the OM that leads after it: they share SCM's sealing key.
        String secret = client.getS3Secret(Callers.localUser(), true).getSecret();
        OmServer leader = oms.stream().filter(OmServer::serving).findFirst().orElseThrow();
        leader.close();
        assertEquals(secret, client.getS3Secret(Callers.localUser(), false).getSecret(), "read on the next leader");
        running = nodes.get(oms.indexOf(leader) == 0 ? 1 : 0);
      }
      int ratisPort = running.ratis().port();
      ManagedChannel asOm = channel(ratisPort, as(ServiceRole.OM, "om-probe"), ServiceRole.OM);
      refused(Status.Code.UNIMPLEMENTED, () -> call(asOm, "tropos.Probe/Call"));
      ManagedChannel asDatanode = channel(ratisPort, as(ServiceRole.DATANODE, "127.0.0.96"), ServiceRole.OM);
      for (String raftMethod : List.of("ratis.grpc.RaftServerProtocolService/requestVote",
          "ratis.grpc.RaftClientProtocolService/ordered")) {
        refused(Status.Code.PERMISSION_DENIED, () -> call(asDatanode, raftMethod));
      }
      ManagedChannel plain = keep(NettyChannelBuilder.forAddress("127.0.0.1", ratisPort).usePlaintext().build());
      refused(Status.Code.UNAVAILABLE, () -> call(plain, "tropos.Probe/Call"));
    } finally {
      oms.forEach(OmServer::close);
    }
  }

  /**
   * An empty unary call of {@code fullMethodName}: of a method no server has, UNIMPLEMENTED once TLS let the caller
   * in; UNAVAILABLE when the handshake refused it.
   */
  private static void call(ManagedChannel channel, String fullMethodName) {
    io.grpc.MethodDescriptor<byte[], byte[]> method = io.grpc.MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(io.grpc.MethodDescriptor.MethodType.UNARY).setFullMethodName(fullMethodName)
        .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    io.grpc.stub.ClientCalls.blockingUnaryCall(channel, method, io.grpc.CallOptions.DEFAULT.withDeadlineAfter(10,
        TimeUnit.SECONDS), new byte[0]);
  }

  private static final io.grpc.MethodDescriptor.Marshaller<byte[]> BYTES = new io.grpc.MethodDescriptor
      .Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new java.io.ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  };

  @Test
  void aUserIsWhoItsCertificateNamesAndACallerWithoutOneIsNobody() throws Exception {
    Path security = dir.resolve("cluster/scm/scm-security");
    String conf = mini.clientConfDir(dir.resolve("user-conf")).toString();
    Path alicePem = dir.resolve("alice.pem");
    TroposCli.run(0, "admin", "cert", "issue", "--user", "alice", "--out", alicePem.toString(), "--security-dir",
        security.toString(), "--conf", conf);
    assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"),
        Files.getPosixFilePermissions(alicePem));
    TroposCli.run(1, "admin", "cert", "issue", "--user", "alice", "--out", alicePem.toString(), "--security-dir",
        security.toString(), "--conf", conf);

    Configuration asAlice = mini.clientConfig().with("tropos.security.identity.file", alicePem.toString());
    // The header names root, an administrator; alice's certificate says who calls.
    try (TroposClient alice = TroposClient.create(asAlice, "root")) {
      String secret = alice.getS3Secret("alice", true).getSecret();
      OmException denied = assertThrows(OmException.class, () -> alice.getS3Secret("root", false));
      assertEquals(OmResult.PERMISSION_DENIED, denied.result(), denied.getMessage());
      assertThrows(OmException.class, () -> alice.setS3Secret("root", "a-secret-of-my-choosing-0123456789ab"));

      Configuration nobody = mini.clientConfig().with("tropos.security.identity.file", "");
      try (TroposClient anonymous = TroposClient.create(nobody, "root")) {
        assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> anonymous.getS3Secret(
            "alice", false)).result(), "no certificate: nobody, whatever the header says");
      }
      try (TroposClient root = TroposClient.create(mini.clientConfig())) {
        assertEquals(secret, root.getS3Secret("alice", false).getSecret(), "the cluster's administrator may");
      }
    }
  }

  /**
   * The OM serves only callers it can name: without a certificate, or with a daemon's other than the gateway's,
   * nothing is listed, read or deleted, whatever user the call names; the key and its bucket are still there. Its
   * S3 identity service serves users alone: not even the gateway's certificate attaches a policy there.
   */
  @Test
  void theOmServesNoCallerWithoutAUsersOrTheGatewaysCertificate() throws Exception {
    Configuration nobody = mini.clientConfig().with("tropos.security.identity.file", "");
    try (TroposClient anonymous = TroposClient.create(nobody, "root");
        TroposClient datanode = TroposClient.create(mini.clientConfig(), "root", as(ServiceRole.DATANODE,
            "127.0.0.94"));
        TroposClient gateway = TroposClient.create(mini.clientConfig(), "root", as(ServiceRole.S3G,
            "127.0.0.95"))) {
      for (TroposClient caller : List.of(anonymous, datanode)) {
        for (Executable call : List.<Executable>of(() -> caller.listVolumes(""),
            () -> caller.lookupKey("vol", "bucket", "kept"), () -> caller.deleteKey("vol", "bucket", "kept", false),
            () -> caller.deleteBucket("vol", "bucket"))) {
          assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, call).result());
        }
      }
      for (TroposClient caller : List.of(anonymous, datanode, gateway)) {
        for (Executable call : List.<Executable>of(() -> caller.s3Identities().policies(),
            () -> caller.s3Identities().attach(AttachS3PoliciesRequest.newBuilder().addPolicies("readwrite")
                .setUser("root").build()), () -> caller.s3Identities().setEnabled("root", false))) {
          assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, call).result());
        }
      }
    }
    try (TroposClient root = TroposClient.create(mini.clientConfig())) {
      S3User untouched = root.s3Identities().users("root").get(0);
      assertTrue(untouched.getPoliciesList().isEmpty() && !untouched.getDisabled(), "nothing was attached");
    }
    assertArrayEquals(DATA, readKept(), "the key is still there");
  }

  /**
   * The datanodes' data ports as an outsider finds them (over TLS: in plaintext they answer nothing at all): a
   * block read straight from a read port, or chunks and a PutBlock sent over a committed block through the
   * pipeline's Raft port, without the block's token from the OM (or with a token for another block or mode) are
   * refused with BLOCK_TOKEN_VERIFICATION_FAILED, and the key reads as written. So is a whole block in one entry,
   * which a writer in the leader's JVM hands to it without the port.
   */
  @Test
  void noBlockIsReadOrOverwrittenWithoutItsToken() throws Exception {
    LookupKeyResponse lookup;
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      lookup = client.lookupKey("vol", "bucket", "kept");
    }
    assertEquals(lookup.getKey().getBlocksCount(), lookup.getBlockTokensCount(), "a READ token per block");
    KeyBlock block = lookup.getKey().getBlocks(0);
    BlockToken token = lookup.getBlockTokens(0);
    ContainerInfo container = lookup.getContainers(0);
    BlockId neighbour = block.getBlockId().toBuilder().setLocalId(block.getBlockId().getLocalId() + 1).build();
    for (DatanodeDetails replica : container.getReplicasList()) {
      int port = replica.getPortsList().stream().filter(p -> p.getName() == PortName.READ).findFirst()
          .orElseThrow().getValue();
      HostPort readPort = new HostPort(replica.getIpAddress(), port);
      try (BlockReadClient plain = new BlockReadClient(readPort, Duration.ofSeconds(10))) {
        assertThrows(java.io.IOException.class, () -> plain.read(block.getBlockId(), 0, block.getLength(), token,
            b -> fail("a plaintext reader got bytes")), "the read port speaks only TLS");
      }
      try (BlockReadClient reader = new BlockReadClient(readPort, Duration.ofSeconds(10),
          TransportSecurity.trusting(root()))) {
        long[] delivered = {0};
        for (BlockToken wrong : List.of(BlockToken.getDefaultInstance(), token.toBuilder()
            .setSignature(ByteString.copyFrom(new byte[32])).build())) {
          DatanodeException refusal = assertThrows(DatanodeException.class, () -> reader.read(block.getBlockId(), 0,
              block.getLength(), wrong, b -> delivered[0] += b.remaining()));
          assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, refusal.result());
        }
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
            () -> reader.read(neighbour, 0, 1, token, b -> delivered[0] += b.remaining())).result());
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
            () -> reader.listContainer(container.getContainerId(), token)).result());
        assertEquals(0, delivered[0], "not a byte left the datanode");
        assertEquals(block.getLength(), reader.read(block.getBlockId(), 0, block.getLength(), token, b -> { }),
            "the OM's token reads the block");
      }
    }

    byte[] forged = new byte[(int) block.getLength()];
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(forged), 16 * 1024);
    for (BlockToken wrong : List.of(BlockToken.getDefaultInstance(), token)) {
      // A client of its own per refused command: Ratis's ordered client does not go on after a failed request.
      try (PipelineClient pipeline = pipelineOf(container)) {
        CompletionException chunk = assertThrows(CompletionException.class, () -> pipeline.writeChunk(
            block.getBlockId(), wrong, 0, ByteBuffer.wrap(forged), sums).join());
        assertTrue(chunk.getMessage().contains("BLOCK_TOKEN_VERIFICATION_FAILED"), chunk.getMessage());
      }
      try (PipelineClient pipeline = pipelineOf(container)) {
        CompletionException put = assertThrows(CompletionException.class, () -> pipeline.putBlock(
            block.getBlockId(), wrong, forged.length, sums).join());
        assertTrue(put.getMessage().contains("BLOCK_TOKEN_VERIFICATION_FAILED"), put.getMessage());
      }
      try (PipelineClient pipeline = pipelineOf(container)) {
        CompletionException whole = assertThrows(CompletionException.class, () -> pipeline.writeLastChunk(
            block.getBlockId(), wrong, 0, ByteBuffer.wrap(forged), sums, forged.length, sums).join());
        assertTrue(whole.getMessage().contains("BLOCK_TOKEN_VERIFICATION_FAILED"), whole.getMessage());
      }
    }
    assertArrayEquals(DATA, readKept(), "the key reads as written");
  }

  /**
   * Decommissioning a datanode, closing a pipeline and even listing pipelines take an administrator's certificate:
   * a caller with none, a user who is not an administrator, and a daemon (whatever user it names) are refused, and
   * nothing changed.
   */
  @Test
  void onlyAnAdministratorDecommissionsOrClosesPipelines() throws Exception {
    int port = mini.cluster().scm().clientPort();
    String host = mini.datanodes().get(0).getDetails().getHostName();
    ManagedChannel looking = channel(port, as(ServiceRole.USER, Callers.localUser()), ServiceRole.SCM);
    PipelineInfo open = ScmAdminServiceGrpc.newBlockingStub(looking).withDeadlineAfter(10, TimeUnit.SECONDS)
        .listPipelines(ListPipelinesRequest.getDefaultInstance()).getPipelinesList().stream()
        .filter(p -> p.getState() == PipelineState.OPEN).findFirst().orElseThrow();
    for (TransportSecurity caller : List.of(TransportSecurity.trusting(root()), as(ServiceRole.USER, "mallory"),
        as(ServiceRole.OM, "localhost"))) {
      ScmAdminServiceGrpc.ScmAdminServiceBlockingStub admin = ScmAdminServiceGrpc.newBlockingStub(
          channel(port, caller, ServiceRole.SCM)).withDeadlineAfter(10, TimeUnit.SECONDS);
      refused(Status.Code.PERMISSION_DENIED, () -> admin.decommissionDatanodes(DatanodeAdminRequest.newBuilder()
          .addHosts(host).build()));
      refused(Status.Code.PERMISSION_DENIED, () -> admin.closePipeline(PipelineRequest.newBuilder()
          .setId(open.getId()).build()));
      refused(Status.Code.PERMISSION_DENIED, () -> admin.listPipelines(ListPipelinesRequest.getDefaultInstance()));
    }
    assertTrue(mini.datanodes().stream().allMatch(d -> d.getOperationalState() == NodeOperationalState.IN_SERVICE),
        "every datanode still in service");
    assertTrue(ScmAdminServiceGrpc.newBlockingStub(looking).withDeadlineAfter(10, TimeUnit.SECONDS)
        .listPipelines(ListPipelinesRequest.getDefaultInstance()).getPipelinesList().stream()
        .anyMatch(p -> p.getId().equals(open.getId()) && p.getState() == PipelineState.OPEN),
        "the pipeline still open");

    ScmAdminServiceGrpc.ScmAdminServiceBlockingStub administrator = ScmAdminServiceGrpc.newBlockingStub(
        channel(port, as(ServiceRole.USER, Callers.localUser()), ServiceRole.SCM))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
    assertEquals(1, administrator.recommissionDatanodes(DatanodeAdminRequest.newBuilder().addHosts(host).build())
        .getResultsCount(), "the user running SCM may");
  }

  /**
   * The gateway serves S3 over HTTPS beside HTTP with its certificate from the cluster's CA, naming the host it
   * listens on: an SDK that trusts the CA (and checks the host name) writes and reads there; one that does not
   * trust the CA fails the handshake and reaches nothing.
   */
  @Test
  void theGatewayServesS3OverHttpsWithACertificateOfTheCluster() throws Exception {
    URI https = URI.create(mini.cluster().s3HttpsEndpoint().orElseThrow());
    String secret;
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      secret = client.getS3Secret(Callers.localUser(), true).getSecret();
    }
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    trusted.setCertificateEntry("cluster", root());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    byte[] object = Arrays.copyOf(DATA, 70_000);
    try (S3Client s3 = s3(https, secret, ApacheHttpClient.builder().tlsTrustManagersProvider(
        trust::getTrustManagers))) {
      s3.createBucket(b -> b.bucket("tls-bucket"));
      s3.putObject(b -> b.bucket("tls-bucket").key("obj"), RequestBody.fromBytes(object));
      assertArrayEquals(object, s3.getObjectAsBytes(b -> b.bucket("tls-bucket").key("obj")).asByteArray());
    }
    try (S3Client stranger = s3(https, secret, ApacheHttpClient.builder())) {
      SdkClientException e = assertThrows(SdkClientException.class, () -> stranger.listBuckets());
      assertTrue(e.getMessage().contains("PKIX") || e.getCause() instanceof SSLHandshakeException, e.getMessage());
    }
  }

  private static S3Client s3(URI endpoint, String secret, ApacheHttpClient.Builder http) {
    return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).httpClientBuilder(http)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(Callers.localUser(),
            secret)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  /** A client of the container's pipeline over TLS, showing no certificate (as any client of the cluster can). */
  private static PipelineClient pipelineOf(ContainerInfo container) throws Exception {
    return new PipelineClient(Uuids.fromProto(container.getPipelineId().getId()), container.getReplicasList(),
        null, TransportSecurity.trusting(root()));
  }

  /**
   * A datanode's Raft port takes clients' writes over TLS (what they may write, their tokens say), but only a
   * datanode of the cluster may add or remove its Raft groups, vote or append entries there: a caller without a
   * certificate, a user's and an OM's certificate are refused, a plaintext caller gets no answer, and the pipeline
   * goes on serving.
   */
  @Test
  void onlyDatanodesManageOrReplicatePipelinesOnTheRaftPort() throws Exception {
    ContainerInfo container;
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      container = client.lookupKey("vol", "bucket", "kept").getContainers(0);
    }
    DatanodeDetails replica = container.getReplicas(0);
    HostPort raftPort = DatanodeAddresses.of(replica, PortName.RATIS);
    RaftGroupId groupId = RaftGroupId.valueOf(Uuids.fromProto(container.getPipelineId().getId()));
    RaftPeerId member = RaftPeerId.valueOf(Uuids.fromProto(replica.getUuid()).toString());
    RaftGroup group = RaftGroup.valueOf(groupId, RaftPeer.newBuilder().setId(member).setAddress(raftPort.toString())
        .build());
    for (TransportSecurity caller : List.of(TransportSecurity.trusting(root()), as(ServiceRole.USER, "mallory"),
        as(ServiceRole.OM, "localhost"))) {
      try (RaftClient client = raftClient(group, caller)) {
        java.io.IOException refusal = assertThrows(java.io.IOException.class,
            () -> client.getGroupManagementApi(member).remove(groupId, true, false));
        assertTrue(String.valueOf(refusal.getMessage()).contains("PERMISSION_DENIED"), refusal.toString());
      }
    }
    ManagedChannel user = keep(NettyChannelBuilder.forAddress(raftPort.host(), raftPort.port()).sslContext(
        as(ServiceRole.USER, "mallory").clientContext(ServiceRole.DATANODE)).build());
    refused(Status.Code.PERMISSION_DENIED, () -> call(user, "ratis.grpc.RaftServerProtocolService/requestVote"));
    ManagedChannel plain = keep(NettyChannelBuilder.forAddress(raftPort.host(), raftPort.port()).usePlaintext()
        .build());
    refused(Status.Code.UNAVAILABLE, () -> call(plain, "ratis.grpc.RaftClientProtocolService/unordered"));
    try (RaftClient datanode = raftClient(group, as(ServiceRole.DATANODE, "127.0.0.95"))) {
      assertTrue(datanode.getGroupManagementApi(member).list().getGroupIds().contains(groupId),
          "a datanode's certificate is let in");
    }
    assertArrayEquals(DATA, readKept(), "the pipeline's data untouched");
    try (TroposClient client = TroposClient.create(mini.clientConfig());
        OutputStream out = client.createKey("vol", "bucket", "after-raft-probes", DATA.length)) {
      out.write(DATA);
    }
  }

  private static RaftClient raftClient(RaftGroup group, TransportSecurity caller) {
    RaftProperties properties = new RaftProperties();
    return RaftClient.newBuilder().setProperties(properties).setRaftGroup(group)
        .setRetryPolicy(RetryPolicies.noRetry()).setClientRpc(new GrpcFactory(RaftTls.client(caller,
            ServiceRole.DATANODE)).newRaftClientRpc(ClientId.randomId(), properties)).build();
  }

  /** The block-token keys go to OMs and datanodes only. */
  @Test
  void onlyOmsAndDatanodesFetchTheBlockTokenKeys() throws Exception {
    int port = mini.cluster().scm().clientPort();
    for (ServiceRole role : List.of(ServiceRole.S3G, ServiceRole.SCM)) {
      ManagedChannel channel = channel(port, as(role, "localhost"), ServiceRole.SCM);
      refused(Status.Code.PERMISSION_DENIED, () -> ScmSecurityServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS).getSecretKeys(GetSecretKeysRequest.getDefaultInstance()));
    }
    ManagedChannel om = channel(port, as(ServiceRole.OM, "localhost"), ServiceRole.SCM);
    assertEquals(1, ScmSecurityServiceGrpc.newBlockingStub(om).withDeadlineAfter(10, TimeUnit.SECONDS)
        .getSecretKeys(GetSecretKeysRequest.getDefaultInstance()).getKeysCount());
  }

  /**
   * S3 secrets are sealed in the OM's database with a key SCM hands to OMs alone: no file of the OM holds a secret
   * it handed out, and only an OM's certificate fetches the key (a datanode's, the gateway's or a user's do not).
   */
  @Test
  void theOmKeepsS3SecretsSealedWithAKeyOnlyOmsFetch() throws Exception {
    String secret;
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      secret = client.getS3Secret(Callers.localUser(), true).getSecret();
    }
    byte[] wanted = secret.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    try (java.util.stream.Stream<Path> files = Files.walk(dir.resolve("cluster/om"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
          assertFalse(Arrays.equals(bytes, i, i + wanted.length, wanted, 0, wanted.length), file + " holds the"
              + " secret in the clear");
        }
      }
    }
    int port = mini.cluster().scm().clientPort();
    for (TransportSecurity caller : List.of(as(ServiceRole.DATANODE, "127.0.0.93"), as(ServiceRole.S3G,
        "localhost"), as(ServiceRole.USER, "mallory"))) {
      ManagedChannel channel = channel(port, caller, ServiceRole.SCM);
      refused(Status.Code.PERMISSION_DENIED, () -> ScmSecurityServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS).getSealingKey(GetSealingKeyRequest.getDefaultInstance()));
    }
    ManagedChannel om = channel(port, as(ServiceRole.OM, "localhost"), ServiceRole.SCM);
    assertEquals(32, ScmSecurityServiceGrpc.newBlockingStub(om).withDeadlineAfter(10, TimeUnit.SECONDS)
        .getSealingKey(GetSealingKeyRequest.getDefaultInstance()).getKey().size());
  }

  /**
   * The gateway's certificate reads and changes no user's S3 secret, whatever user its calls name: the OM checks
   * S3 signatures for it (CheckS3Signature, gateway certificates alone) and keeps the secrets to itself.
   */
  @Test
  void theGatewaysCertificateReadsNoSecretAndOnlyTheGatewayAsksForSignatureChecks() throws Exception {
    String secret;
    try (TroposClient root = TroposClient.create(mini.clientConfig())) {
      secret = root.getS3Secret("carol", true).getSecret();
    }
    try (TroposClient gateway = TroposClient.create(mini.clientConfig(), "root", as(ServiceRole.S3G,
        "127.0.0.95"))) {
      assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> gateway.getS3Secret("carol",
          false)).result());
      assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> gateway.setS3Secret("carol",
          "chosen-by-the-gateway-0123456789abcdef")).result());
      String signed = "GET\n\n\nTue, 27 Mar 2007 19:36:42 +0000\n/bucket/key";
      CheckS3SignatureRequest forged = CheckS3SignatureRequest.newBuilder().setAccessId("carol").addStringToSign(
          signed).setSignature(S3Signatures.v2Signature("a guess", signed)).build();
      assertEquals(OmResult.S3_SIGNATURE_MISMATCH, assertThrows(OmException.class, () -> gateway.checkS3Signature(
          forged)).result());
      assertTrue(gateway.checkS3Signature(forged.toBuilder().setSignature(S3Signatures.v2Signature(secret, signed))
          .build()).getSigningKey().isEmpty(), "carol's own signature matches");
    }
    try (TroposClient user = TroposClient.create(mini.clientConfig(), "root", as(ServiceRole.USER, "carol"))) {
      assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> user.checkS3Signature(
          CheckS3SignatureRequest.newBuilder().setAccessId("carol").addStringToSign("x").setSignature("y").build()))
          .result(), "a user may not use the OM as a signature oracle");
    }
    try (TroposClient root = TroposClient.create(mini.clientConfig())) {
      assertEquals(secret, root.getS3Secret("carol", false).getSecret(), "nothing changed");
    }
  }

  /**
   * The gateway's calls act for the S3 user whose request's signature they carry, checked by the OM against the
   * user's secret: without one they act for nobody, whatever user the header names (and nobody may read the
   * bucket's private key, nor may dave before an ACL names him), and with a forged one (or one
   * of a user without a secret) they are refused and change nothing.
   */
  @Test
  void theGatewaysCallsActForTheS3UserOfTheRequestTheOmProves() throws Exception {
    String secret;
    try (TroposClient root = TroposClient.create(mini.clientConfig())) {
      secret = root.getS3Secret("dave", true).getSecret();
    }
    String day = DateTimeFormatter.BASIC_ISO_DATE.format(LocalDate.now(ZoneOffset.UTC));
    String signed = "AWS4-HMAC-SHA256\n" + day + "T000000Z\n" + day + "/us-east-1/s3/aws4_request\nGET /bucket/kept";
    CheckS3SignatureRequest proof = CheckS3SignatureRequest.newBuilder().setAccessId("dave").setDate(day)
        .setRegion("us-east-1").setService("s3").addStringToSign(signed).setSignature(S3Signatures.v4Signature(
            S3Signatures.v4SigningKey(secret, day, "us-east-1", "s3"), signed)).build();
    try (TroposClient gateway = TroposClient.create(mini.clientConfig(), "root", as(ServiceRole.S3G,
        "127.0.0.96"))) {
      assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> gateway.lookupKey("vol",
          "bucket", "kept")).result(), "no request's proof: nobody, though the header names root");
      try (S3RequestProofs.Acting dave = S3RequestProofs.acting(proof, null)) {
        assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> gateway.lookupKey("vol",
            "bucket", "kept")).result(), "dave, who no ACL names yet");
      }
      try (TroposClient root = TroposClient.create(mini.clientConfig())) {
        root.changeAcl(AclObject.newBuilder().setType(AclObjectType.OBJECT_KEY).setVolume("vol").setBucket("bucket")
            .setKey("kept").build(), AclChange.ACL_CHANGE_ADD, List.of(NativeAcl.newBuilder().setIdentity(
                AclIdentity.IDENTITY_USER).setName("dave").addRights(AclRight.RIGHT_READ).build()));
      }
      try (S3RequestProofs.Acting dave = S3RequestProofs.acting(proof, null)) {
        assertEquals("dave", readTokenOwner(gateway));
      }
      for (CheckS3SignatureRequest forged : List.of(proof.toBuilder().setAccessId("root").build(),
          proof.toBuilder().setSignature(S3Signatures.v4Signature(S3Signatures.v4SigningKey("a guess", day,
              "us-east-1", "s3"), signed)).build(), proof.toBuilder().setAccessId("nobody-with-a-secret").build())) {
        try (S3RequestProofs.Acting acting = S3RequestProofs.acting(forged, null)) {
          assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> gateway.deleteKey("vol",
              "bucket", "kept", false)).result());
          assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> gateway.lookupKey("vol",
              "bucket", "kept")).result());
        }
      }
    }
    assertArrayEquals(DATA, readKept(), "the key is still there");
  }

  /** The user the OM names in the read token it hands {@code client} for the kept key. */
  private static String readTokenOwner(TroposClient client) throws Exception {
    return BlockTokenIdentifier.parseFrom(client.lookupKey("vol", "bucket", "kept").getBlockTokens(0)
        .getIdentifier()).getOwner();
  }

  private static byte[] readKept() throws Exception {
    try (TroposClient client = TroposClient.create(mini.clientConfig());
        InputStream in = client.readKey("vol", "bucket", "kept")) {
      return in.readAllBytes();
    }
  }

  private static java.security.cert.X509Certificate root() throws Exception {
    return PemFiles.certificate(Files.readString(dir.resolve("cluster/scm/scm-security/ca.crt")));
  }

  /** Mutual TLS as a daemon of {@code role} on {@code host} with a certificate the cluster's CA signed. */
  private static TransportSecurity as(ServiceRole role, String host) throws Exception {
    CertificateIssuer ca = mini.cluster().scm().certificateIssuer().orElseThrow();
    return TransportSecurity.mutual(ServiceCertificates.join(dir.resolve(role.subjectName() + "-" + host + "-"
        + System.nanoTime()), role, host, X509, ca));
  }

  private ManagedChannel channel(int port, TransportSecurity security, ServiceRole server) throws Exception {
    return keep(NettyChannelBuilder.forAddress("127.0.0.1", port).sslContext(security.clientContext(server)).build());
  }

  private ManagedChannel keep(ManagedChannel channel) {
    channels.add(channel);
    return channel;
  }

  private static void register(ManagedChannel channel, RegisterRequest request) {
    ScmDatanodeServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS).register(request);
  }

  private static ScmBlockServiceGrpc.ScmBlockServiceBlockingStub blockStub(ManagedChannel channel) {
    return ScmBlockServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  /** The call fails with {@code code} (any code when null). */
  private static void refused(Status.Code code, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    if (code != null) {
      assertEquals(code, e.getStatus().getCode(), e.getMessage() + ", caused by " + e.getCause());
    }
  }
}
