package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.S3Identities;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Policy;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3 identity policies attached to users and groups (MinIO's {@code mc admin policy attach}), in a secure cluster:
 * an attached policy grants what the ACLs refuse, a Deny attached to a group refuses even a bucket's owner, a
 * disabled user's signatures prove nobody, and only the OM's administrators manage any of it. Each user's first
 * request comes after its policies are set, because a gateway remembers what a signature proved for a few seconds;
 * the OM decides from its rows at every call, which the native path and the refused deletes show.
 */
class S3IdentityPolicyIT {
  private static final String READ_DATA = policy("Allow", "[\"s3:GetObject\", \"s3:ListBucket\"]",
      "[\"arn:aws:s3:::data\", \"arn:aws:s3:::data/*\"]");

  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static TroposClient admin;
  private static S3Identities identities;
  private static S3Client erin;
  private static TroposClient frankNative;

  @BeforeAll
  static void start() throws Exception {
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true"));
    mini.awaitOpenPipelines(1);
    admin = TroposClient.create(mini.clientConfig());
    identities = admin.s3Identities();
    erin = s3("erin");
    erin.createBucket(b -> b.bucket("data"));
    erin.putObject(p -> p.bucket("data").key("a"), RequestBody.fromString("erin's"));
    // The header names root, an administrator: the certificate decides who calls.
    frankNative = TroposClient.create(mini.userConfig("frank", dir), "root");
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {erin, frankNative, admin, mini}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        // Closing the rest matters more.
      }
    }
  }

  private static S3Client s3(String user) throws OmException {
    String secret = admin.getS3Secret(user, true).getSecret();
    return S3Client.builder().endpointOverride(URI.create(mini.cluster().s3Endpoint())).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(user, secret)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private static String policy(String effect, String actions, String resources) {
    return "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"" + effect + "\", \"Action\": " + actions
        + ", \"Resource\": " + resources + "}]}";
  }

  private static AttachS3PoliciesRequest.Builder attach(String... policies) {
    return AttachS3PoliciesRequest.newBuilder().addAllPolicies(List.of(policies));
  }

  private static int status(Executable call) {
    return assertThrows(S3Exception.class, call).statusCode();
  }

  private static OmResult omRefusal(Executable call) {
    return assertThrows(OmException.class, call).result();
  }

  private static String read(S3Client client, String bucket, String key) {
    return client.getObjectAsBytes(g -> g.bucket(bucket).key(key)).asUtf8String();
  }

  @Test
  void anAttachedPolicyGrantsWhatTheAclsRefuseAndNoMore() throws Exception {
    identities.putPolicy("read-data", READ_DATA);
    identities.attach(attach("read-data").setUser("gina").build());
    identities.attach(attach("read-data").setUser("frank").build());
    try (S3Client gina = s3("gina"); S3Client hank = s3("hank")) {
      assertEquals("erin's", read(gina, "data", "a"));
      assertEquals(List.of("a"), gina.listObjectsV2(l -> l.bucket("data")).contents().stream().map(S3Object::key)
          .toList());
      assertEquals(403, status(() -> read(hank, "data", "a")), "no policy: the ACLs decide");
      assertEquals(403, status(() -> gina.putObject(p -> p.bucket("data").key("a"), RequestBody.fromString("x"))));
      assertEquals(403, status(() -> gina.deleteObject(d -> d.bucket("data").key("a"))));
      assertEquals(403, status(() -> gina.getBucketAcl(g -> g.bucket("data"))));
      assertEquals("erin's", read(erin, "data", "a"), "nothing changed");
    }
    // The OM decides the same on the native path.
    try (InputStream in = frankNative.readKey("s3v", "data", "a")) {
      assertEquals("erin's", new String(in.readAllBytes()));
    }
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frankNative.deleteKey("s3v", "data", "a", false)));
    identities.attach(attach("read-data").setUser("frank").setDetach(true).build());
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frankNative.readKey("s3v", "data", "a").close()),
        "detached: refused from the next call");
    assertEquals(OmResult.S3_IDENTITY_IN_USE, omRefusal(() -> identities.deletePolicy("read-data")), "gina's");
    assertEquals("erin's", read(erin, "data", "a"));
  }

  @Test
  void aDenyAttachedToAGroupRefusesEvenTheBucketsOwner() throws Exception {
    identities.putPolicy("keep-everything", policy("Deny", "[\"s3:DeleteObject\", \"s3:CreateBucket\"]",
        "\"*\""));
    identities.changeGroup(ChangeS3GroupRequest.newBuilder().setName("careful").addAddMembers("ivan").build());
    identities.attach(attach("keep-everything").setGroup("careful").build());
    assertEquals(List.of("keep-everything"), identities.users("ivan").get(0).getEffectivePoliciesList());
    try (S3Client ivan = s3("ivan")) {
      assertEquals(403, status(() -> ivan.createBucket(b -> b.bucket("ivans"))));
      assertEquals(List.of(), ivan.listBuckets().buckets().stream().map(Bucket::name).toList(), "none created");
      // ivan owns the key he writes in a bucket whose policy lets him write, and still may not delete it.
      erin.putBucketPolicy(p -> p.bucket("data").policy("{\"Statement\": [{\"Effect\": \"Allow\", \"Principal\":"
          + " {\"AWS\": \"ivan\"}, \"Action\": \"s3:*\", \"Resource\": \"arn:aws:s3:::data/ivan/*\"}]}"));
      ivan.putObject(p -> p.bucket("data").key("ivan/kept"), RequestBody.fromString("v"));
      assertEquals(403, status(() -> ivan.deleteObject(d -> d.bucket("data").key("ivan/kept"))));
      assertEquals("v", read(ivan, "data", "ivan/kept"), "nothing deleted");
      erin.deleteBucketPolicy(d -> d.bucket("data"));
    }
    assertEquals(OmResult.S3_IDENTITY_IN_USE, omRefusal(() -> identities.changeGroup(ChangeS3GroupRequest
        .newBuilder().setName("careful").setDelete(true).build())), "ivan is still a member");
    identities.changeGroup(ChangeS3GroupRequest.newBuilder().setName("careful").addRemoveMembers("ivan").build());
    assertEquals(List.of(), identities.users("ivan").get(0).getEffectivePoliciesList());
    erin.deleteObject(d -> d.bucket("data").key("ivan/kept"));
  }

  @Test
  void aDisabledUsersSignatureProvesNobody() throws Exception {
    admin.getS3Secret("judy", true);
    identities.setEnabled("judy", false);
    try (S3Client judy = s3("judy")) {
      S3Exception refused = assertThrows(S3Exception.class, judy::listBuckets);
      assertEquals("InvalidAccessKeyId", refused.awsErrorDetails().errorCode());
      identities.setEnabled("judy", true);
      assertEquals(List.of(), judy.listBuckets().buckets());
    }
    identities.remove("judy");
    assertEquals(OmResult.S3_SECRET_NOT_FOUND, omRefusal(() -> admin.getS3Secret("judy", false)));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, omRefusal(() -> identities.remove("judy")));
  }

  @Test
  void onlyAdministratorsManageIdentitiesAndEveryMistakeIsRefusedWithNothingChanged() throws Exception {
    S3Identities frank = frankNative.s3Identities();
    List<S3Policy> before = identities.policies();
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frank.putPolicy("mine", policy("Allow", "\"s3:*\"",
        "\"*\""))));
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frank.attach(attach("readwrite").setUser("frank")
        .build())));
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frank.changeGroup(ChangeS3GroupRequest.newBuilder()
        .setName("admins").addAddMembers("frank").build())));
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frank.setEnabled("erin", false)));
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(frank::policies));
    assertEquals(OmResult.PERMISSION_DENIED, omRefusal(() -> frank.users("")));
    assertEquals("frank", frank.users("frank").get(0).getName(), "a user reads its own entry");

    assertEquals(OmResult.MALFORMED_POLICY, omRefusal(() -> identities.putPolicy("named", "{\"Statement\": [{"
        + "\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:*\", \"Resource\": \"*\"}]}")));
    assertEquals(OmResult.MALFORMED_POLICY, omRefusal(() -> identities.putPolicy("broken", "not json")));
    assertEquals(OmResult.INVALID_REQUEST, omRefusal(() -> identities.putPolicy("readwrite", READ_DATA)));
    assertEquals(OmResult.INVALID_REQUEST, omRefusal(() -> identities.deletePolicy("readonly")));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, omRefusal(() -> identities.attach(attach("no-such").setUser(
        "erin").build())));
    assertEquals(before, identities.policies(), "nothing changed");
    assertTrue(identities.users("erin").get(0).getPoliciesList().isEmpty());
    assertEquals(List.of(), identities.groups().stream().filter(g -> g.getName().equals("admins")).toList());
    // log4j2-test.xml writes the OM's audit log to target/audit.
    assertTrue(Files.readAllLines(Path.of("target/audit", "om-audit.log")).stream().anyMatch(l -> l.contains(
        "| WARN  | user=frank | auth=CERTIFICATE") && l.contains("op=AttachS3Policies | resource={policies=[readwrite],"
        + " user=frank} | result=PERMISSION_DENIED")), "the refusal is in the audit log");
  }

  @Test
  void theCliManagesUsersGroupsAndPolicies() throws Exception {
    String conf = mini.clientConfDir(dir.resolve("cli-conf")).toString();
    Path file = dir.resolve("list-data.json");
    Files.writeString(file, policy("Allow", "\"s3:ListBucket\"", "\"arn:aws:s3:::data\""));
    TroposCli.run(0, "s3", "user", "add", "kate", "--secret", "kates-secret-1", "--conf", conf);
    TroposCli.run(0, "s3", "policy", "create", "list-data", file.toString(), "--conf", conf);
    TroposCli.run(0, "s3", "group", "add", "listers", "kate", "--conf", conf);
    TroposCli.run(0, "s3", "policy", "attach", "list-data", "readonly", "--group", "listers", "--conf", conf);
    assertTrue(TroposCli.run(0, "s3", "policy", "list", "--conf", conf).contains("list-data"));
    String info = TroposCli.run(0, "s3", "user", "info", "kate", "--conf", conf);
    assertTrue(info.contains("Groups: listers") && info.contains("Effective policies: list-data,readonly"), info);
    TroposCli.run(1, "s3", "policy", "remove", "list-data", "--conf", conf);
    TroposCli.run(2, "s3", "policy", "attach", "readonly", "--conf", conf);
    try (S3Client kate = S3Client.builder().endpointOverride(URI.create(mini.cluster().s3Endpoint()))
        .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            "kate", "kates-secret-1"))).serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true)
            .build()).build()) {
      assertEquals("erin's", read(kate, "data", "a"));
    }
    TroposCli.run(0, "s3", "group", "remove", "listers", "kate", "--conf", conf);
    TroposCli.run(0, "s3", "group", "remove", "listers", "--conf", conf);
    TroposCli.run(0, "s3", "user", "remove", "kate", "--conf", conf);
    assertTrue(!TroposCli.run(0, "s3", "user", "list", "--conf", conf).contains("kate"));
  }
}
