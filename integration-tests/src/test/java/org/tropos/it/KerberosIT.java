package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.security.auth.Subject;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.RpcChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.CredentialHeaders;
import org.tropos.common.security.KerberosCredential;
import org.tropos.common.security.KerberosLogin;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CreateBucketRequest;
import org.tropos.proto.om.DelegationTokenIdentifier;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.ScmResult;

/**
 * Users proven by Kerberos against a real MIT KDC, and the OM's delegation tokens for the tasks of their jobs, in a
 * secure cluster: a user is who its ticket names, whatever header it sends; a forged, replayed or misdirected
 * ticket proves nobody and changes nothing; a token lets a task without a ticket act as the token's owner until it
 * expires or is cancelled, and gets or renews no tokens itself.
 */
class KerberosIT {
  private static final String OM_PRINCIPAL = MitKdc.qualified("om/localhost");
  private static final String SCM_PRINCIPAL = MitKdc.qualified("scm/localhost");
  private static final String RENEW_INTERVAL = "10s";

  @TempDir
  static Path dir;
  private static MitKdc kdc;
  private static MiniCluster mini;
  private static Path aliceKeytab;
  private static Path yarnKeytab;
  private static Path adminKeytab;

  @BeforeAll
  static void start() throws Exception {
    kdc = MitKdc.start(dir.resolve("kdc"));
    Path omKeytab = kdc.keytab("om/localhost");
    Path scmKeytab = kdc.keytab("scm/localhost");
    adminKeytab = kdc.keytab("admin");
    aliceKeytab = kdc.keytab("alice");
    yarnKeytab = kdc.keytab("yarn/localhost");
    kdc.keytab("HTTP/localhost");
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true",
        "ozone.om.kerberos.principal", OM_PRINCIPAL, "ozone.om.kerberos.keytab.file", omKeytab.toString(),
        "hdds.scm.kerberos.principal", SCM_PRINCIPAL, "hdds.scm.kerberos.keytab.file", scmKeytab.toString(),
        "ozone.administrators", "admin", "ozone.manager.delegation.token.renew-interval", RENEW_INTERVAL));
    mini.awaitAllHealthy();
    mini.awaitOpenPipelines(1);
    org.apache.hadoop.conf.Configuration kerberos = new org.apache.hadoop.conf.Configuration();
    kerberos.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(kerberos);
    try (TroposClient root = TroposClient.create(mini.clientConfig())) {
      root.createVolume(VolumeInfo.newBuilder().setName("jobs").setOwner("alice").build());
    }
  }

  @AfterAll
  static void stop() {
    if (mini != null) {
      mini.close();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  @Test
  void aKerberosUserIsWhoItsTicketNamesWhateverItsHeaderSays() throws Exception {
    Subject alice = KerberosLogin.fromKeytab(MitKdc.qualified("alice"), aliceKeytab, true);
    TransportSecurity asAlice = TransportSecurity.trusting(root(), new KerberosCredential(alice,
        Map.of(ServiceRole.OM, OM_PRINCIPAL)));
    try (TroposClient client = TroposClient.create(userConfig(), "root", asAlice)) {
      assertTrue(client.getS3Secret("alice", true).getSecret().length() > 0, "alice reads her own secret");
      OmException denied = assertThrows(OmException.class, () -> client.getS3Secret("root", true));
      assertEquals(OmResult.PERMISSION_DENIED, denied.result(), "the header names root; the ticket says alice");
    }
    // The same through the Hadoop FileSystem, logged in as Hadoop programs log in.
    UserGroupInformation hadoopAlice = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        MitKdc.qualified("alice"), aliceKeytab.toString());
    byte[] written = "written by a Kerberos user".getBytes(StandardCharsets.UTF_8);
    byte[] read = hadoopAlice.doAs((PrivilegedExceptionAction<byte[]>) () -> {
      try (FileSystem fs = FileSystem.newInstance(omUri(), hadoopConf())) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/jobs/input/kerberos.txt");
        try (FSDataOutputStream out = fs.create(file)) {
          out.write(written);
        }
        try (var in = fs.open(file)) {
          return in.readAllBytes();
        }
      }
    });
    assertArrayEquals(written, read);
  }

  /** The CLI reads the ticket cache kinit fills, and acts as its principal's user: "you" is alice. */
  @Test
  void theCliActsAsTheUserOfTheTicketCache() throws Exception {
    Path cache = dir.resolve("alice.ccache");
    kdc.kinit("alice", aliceKeytab, cache);
    Map<String, String> keys = new java.util.HashMap<>(userConfig().explicitValues());
    keys.putAll(Map.of("hadoop.security.authentication", "kerberos", "ozone.om.kerberos.principal", OM_PRINCIPAL,
        "hadoop.security.kerberos.ticket.cache.path", cache.toString()));
    String conf = TroposCli.confDir(dir.resolve("alice-cli"), keys);
    assertTrue(TroposCli.run(0, "s3", "getsecret", "--conf", conf).contains("awsAccessKey=alice"));
    assertTrue(TroposCli.runShowingErrors(1, "s3", "getsecret", "--user", "root", "--conf", conf)
        .contains("PERMISSION_DENIED"));
    keys.put("hadoop.security.kerberos.ticket.cache.path", dir.resolve("no-such-cache").toString());
    String noTicket = TroposCli.confDir(dir.resolve("no-ticket-cli"), keys);
    assertTrue(TroposCli.runShowingErrors(1, "s3", "getsecret", "--conf", noTicket).contains("kinit"));
  }

  /** SCM's administration takes Kerberos too: an administrator's ticket changes a pipeline, alice's does not. */
  @Test
  void scmAdministratorsMayBeProvenByKerberos() throws Exception {
    Map<ServiceRole, String> scm = Map.of(ServiceRole.SCM, SCM_PRINCIPAL);
    TransportSecurity asAlice = TransportSecurity.trusting(root(), new KerberosCredential(KerberosLogin.fromKeytab(
        MitKdc.qualified("alice"), aliceKeytab, true), scm));
    TransportSecurity asAdmin = TransportSecurity.trusting(root(), new KerberosCredential(KerberosLogin.fromKeytab(
        MitKdc.qualified("admin"), adminKeytab, true), scm));
    try (ScmAdminClient alice = new ScmAdminClient(List.of(mini.scmClientAddress()), asAlice);
        ScmAdminClient admin = new ScmAdminClient(List.of(mini.scmClientAddress()), asAdmin)) {
      PipelineInfo pipeline = admin.listPipelines(PipelineState.OPEN).get(0);
      ScmException denied = assertThrows(ScmException.class, () -> alice.deactivatePipeline(
          Uuids.fromProto(pipeline.getId().getId())));
      assertEquals(ScmResult.PERMISSION_DENIED, denied.result(), denied.getMessage());
      assertTrue(admin.listPipelines(PipelineState.OPEN).stream().anyMatch(p -> p.getId().equals(
          pipeline.getId())), "alice's call changed nothing");
      assertEquals(PipelineState.DORMANT, admin.deactivatePipeline(Uuids.fromProto(pipeline.getId().getId()))
          .getState());
      assertEquals(PipelineState.OPEN, admin.activatePipeline(Uuids.fromProto(pipeline.getId().getId()))
          .getState());
    }
  }

  /**
   * Raw calls over TLS without a certificate: no credential, a forged one, a ticket for another service, and a
   * ticket replayed are refused before anything runs, and no bucket is made.
   */
  @Test
  void forgedMisdirectedAndReplayedTicketsProveNobody() throws Exception {
    Subject alice = KerberosLogin.fromKeytab(MitKdc.qualified("alice"), aliceKeytab, true);
    byte[] forOm = ticket(alice, OM_PRINCIPAL);
    byte[] forHttp = ticket(alice, MitKdc.qualified("HTTP/localhost"));
    ManagedChannel om = RpcChannel.open(mini.omAddress(), new RpcChannel.ServerTrust(TransportSecurity.trusting(
        root()), ServiceRole.OM));
    try {
      assertEquals(Status.Code.UNAUTHENTICATED, createBucket(om, "none", null).getStatus().getCode());
      assertEquals(Status.Code.UNAUTHENTICATED, createBucket(om, "garbage", "not a ticket".getBytes(
          StandardCharsets.UTF_8)).getStatus().getCode());
      StatusRuntimeException misdirected = createBucket(om, "misdirected", forHttp);
      assertEquals(Status.Code.UNAUTHENTICATED, misdirected.getStatus().getCode(), misdirected.getMessage());
      byte[] flipped = forOm.clone();
      flipped[flipped.length - 5] ^= 0x1;
      assertEquals(Status.Code.UNAUTHENTICATED, createBucket(om, "flipped", flipped).getStatus().getCode());
      assertEquals(Status.Code.OK, createBucket(om, "first-use", forOm).getStatus().getCode(), "the genuine ticket, once");
      StatusRuntimeException replayed = createBucket(om, "replayed", forOm);
      assertEquals(Status.Code.UNAUTHENTICATED, replayed.getStatus().getCode(), replayed.getMessage());
    } finally {
      om.shutdownNow();
    }
    try (TroposClient root = TroposClient.create(mini.clientConfig())) {
      List<String> buckets = root.listBuckets("jobs", "").stream().map(BucketInfo::getName).toList();
      for (String refused : List.of("none", "garbage", "misdirected", "flipped", "replayed")) {
        assertTrue(!buckets.contains(refused), refused + " was made: " + buckets);
      }
      assertTrue(buckets.contains("first-use"), buckets.toString());
    }
  }

  @Test
  void aDelegationTokenLetsATaskActAsItsOwnerUntilCancelled() throws Exception {
    UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI(MitKdc.qualified("alice"),
        aliceKeytab.toString());
    Credentials credentials = new Credentials();
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem fs = FileSystem.newInstance(omUri(), hadoopConf())) {
        fs.addDelegationTokens(MitKdc.qualified("yarn/localhost"), credentials);
      }
      return null;
    });
    Token<?> token = credentials.getAllTokens().iterator().next();
    assertEquals("TROPOS_DELEGATION_TOKEN", token.getKind().toString());
    assertEquals(mini.omAddress().toString(), token.getService().toString());
    DelegationTokenIdentifier said = ((org.tropos.client.hadoop.TroposTokenIdentifier) token.decodeIdentifier())
        .identifier();
    assertEquals("alice", said.getOwner());
    assertEquals("yarn", said.getRenewer(), "the renewer's principal maps to its user");

    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    task.addToken(token);
    byte[] written = "written by a task with a token".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(written, task.doAs((PrivilegedExceptionAction<byte[]>) () -> writeAndRead("token.txt",
        written)));
    assertThrows(AccessControlException.class, () -> task.doAs((PrivilegedExceptionAction<Object>) () -> {
      try (FileSystem fs = FileSystem.newInstance(omUri(), hadoopConf())) {
        return fs.getDelegationToken("yarn");
      }
    }), "a token gets no tokens");

    // A token whose identifier names another owner does not verify, nor one with a password of the forger's.
    UserGroupInformation forger = UserGroupInformation.createRemoteUser("root");
    forger.addToken(new Token<>(said.toBuilder().setOwner("root").build().toByteArray(), token.getPassword(),
        token.getKind(), token.getService()));
    assertRefused(forger);
    UserGroupInformation guesser = UserGroupInformation.createRemoteUser("alice");
    guesser.addToken(new Token<>(token.getIdentifier(), new byte[32], token.getKind(), token.getService()));
    assertRefused(guesser);

    // Only the renewer renews; the owner cancels, and the task is nobody from then on.
    assertThrows(AccessControlException.class, () -> alice.doAs((PrivilegedExceptionAction<Long>) () ->
        token.renew(hadoopConf())));
    UserGroupInformation yarn = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        MitKdc.qualified("yarn/localhost"), yarnKeytab.toString());
    long now = System.currentTimeMillis();
    long expiry = yarn.doAs((PrivilegedExceptionAction<Long>) () -> token.renew(hadoopConf()));
    assertTrue(expiry > now + 5_000 && expiry <= now + 11_000, "renewed for the renew interval: " + (expiry - now));
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      token.cancel(hadoopConf());
      return null;
    });
    assertRefused(task);
  }

  @Test
  void aTokenExpiresUnlessRenewed() throws Exception {
    UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI(MitKdc.qualified("alice"),
        aliceKeytab.toString());
    Token<?> token = alice.doAs((PrivilegedExceptionAction<Token<?>>) () -> {
      try (FileSystem fs = FileSystem.newInstance(omUri(), hadoopConf())) {
        return fs.getDelegationToken("yarn");
      }
    });
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    task.addToken(token);
    task.doAs((PrivilegedExceptionAction<byte[]>) () -> writeAndRead("before-expiry.txt", new byte[] {1}));
    // The token's lifetime runs on the OM's wall clock in another process's sense (Hadoop's token renewer):
    // waited for in real time.
    Thread.sleep(11_000);
    assertRefused(task);
    UserGroupInformation yarn = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        MitKdc.qualified("yarn/localhost"), yarnKeytab.toString());
    assertThrows(AccessControlException.class, () -> yarn.doAs((PrivilegedExceptionAction<Long>) () ->
        token.renew(hadoopConf())), "an expired token is not renewed");
  }

  /**
   * A MapReduce-style task: a JVM of its own with no Kerberos ticket, whose only credential is the token file
   * YARN would hand it ({@code HADOOP_TOKEN_FILE_LOCATION}), reads its input and writes its output as alice.
   */
  @Test
  void aTaskInItsOwnJvmWorksWithOnlyATokenFile() throws Exception {
    UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI(MitKdc.qualified("alice"),
        aliceKeytab.toString());
    Credentials credentials = new Credentials();
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem fs = FileSystem.newInstance(omUri(), hadoopConf())) {
        fs.addDelegationTokens("yarn", credentials);
        try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/jobs/input/task-input.txt"))) {
          out.write("input of the task".getBytes(StandardCharsets.UTF_8));
        }
      }
      return null;
    });
    Path tokenFile = dir.resolve("container_tokens");
    credentials.writeTokenStorageFile(new org.apache.hadoop.fs.Path(tokenFile.toUri()),
        new org.apache.hadoop.conf.Configuration());
    ProcessBuilder task = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-Djava.security.krb5.conf=" + kdc.krb5Conf(), "-cp", System.getProperty("java.class.path"),
        TokenTask.class.getName(), omUri().toString(), caFile(),
        "/jobs/input/task-input.txt", "/jobs/output/part-00000").redirectErrorStream(true)
        .redirectOutput(dir.resolve("task.log").toFile());
    task.environment().put("HADOOP_TOKEN_FILE_LOCATION", tokenFile.toString());
    task.environment().put("KRB5CCNAME", "FILE:" + dir.resolve("no-ticket-cache"));
    task.environment().remove("HADOOP_USER_NAME");
    Process running = task.start();
    assertTrue(running.waitFor(120, TimeUnit.SECONDS), "the task did not finish");
    String log = Files.readString(dir.resolve("task.log"));
    assertEquals(0, running.exitValue(), log);
    assertTrue(log.contains("task done without a Kerberos ticket; getDelegationToken refused"), log);
    try (TroposClient root = TroposClient.create(mini.clientConfig());
        var in = root.readKey("jobs", "output", "part-00000")) {
      assertEquals("INPUT OF THE TASK", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static void assertRefused(UserGroupInformation user) {
    IOException refused = assertThrows(IOException.class, () -> user.doAs((PrivilegedExceptionAction<byte[]>) () ->
        writeAndRead("refused.txt", new byte[] {2})));
    assertTrue(refused.getMessage().contains("token") || refused.getMessage().contains("UNAUTHENTICATED")
        || refused.getMessage().contains("PERMISSION_DENIED"), refused.toString());
  }

  private static byte[] writeAndRead(String name, byte[] data) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(omUri(), hadoopConf())) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/jobs/input/" + name);
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(data);
      }
      try (var in = fs.open(file)) {
        return in.readAllBytes();
      }
    }
  }

  /** A bucket of volume jobs (alice's) made by a raw call with {@code ticket}. */
  private static StatusRuntimeException createBucket(ManagedChannel om, String name, byte[] ticket) {
    Metadata headers = new Metadata();
    if (ticket != null) {
      headers.put(CredentialHeaders.KERBEROS, ticket);
    }
    try {
      OmServiceGrpc.newBlockingStub(om).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
          .withDeadlineAfter(10, TimeUnit.SECONDS).createBucket(CreateBucketRequest.newBuilder().setBucket(
              BucketInfo.newBuilder().setVolume("jobs").setName(name)).build());
      return Status.OK.asRuntimeException();
    } catch (StatusRuntimeException e) {
      return e;
    }
  }

  /** An AP-REQ of {@code subject} for {@code service}, as {@link KerberosCredential} sends it. */
  private static byte[] ticket(Subject subject, String service) throws Exception {
    Metadata headers = new Metadata();
    new KerberosCredential(subject, Map.of(ServiceRole.OM, service)).attach(headers, ServiceRole.OM, "localhost");
    return headers.get(CredentialHeaders.KERBEROS);
  }

  private static java.security.cert.X509Certificate root() throws IOException {
    return SecuritySettings.clusterRoot(mini.clientConfig());
  }

  private static String caFile() {
    return mini.clientConfig().get(org.tropos.common.conf.SecurityKeys.CA_FILE);
  }

  private static URI omUri() {
    return URI.create("tropos://" + mini.omAddress());
  }

  /** A user's client without a certificate. */
  private static Configuration userConfig() {
    return mini.clientConfig().with("tropos.security.identity.file", "");
  }

  private static org.apache.hadoop.conf.Configuration hadoopConf() {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    conf.set("hadoop.security.authentication", "kerberos");
    userConfig().with("ozone.om.kerberos.principal", OM_PRINCIPAL).explicitValues().forEach(conf::set);
    return conf;
  }
}
