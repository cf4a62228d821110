package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OmResult;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectOwnership;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3 bucket policies, Block Public Access and Object Ownership in a secure cluster, tried by the bucket's owner, a
 * second user and an anonymous caller through the AWS SDK, and by the second user on the native path with its
 * certificate: a policy opens exactly what it names, an explicit Deny refuses even the owner (but never its hold on
 * the policy itself), conditions are tested on the request, Block Public Access refuses or ignores what is public,
 * Object Ownership decides who owns a new object, and a refused request changes nothing. The OM enforces the
 * policy itself, so the native path meets the same answers as S3.
 */
class BucketPolicyIT {
  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static S3Client owner;
  private static S3Client other;
  private static S3Client anonymous;
  private static TroposClient otherNative;

  @BeforeAll
  static void start() throws Exception {
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true"));
    mini.awaitOpenPipelines(1);
    URI endpoint = URI.create(mini.cluster().s3Endpoint());
    try (TroposClient admin = TroposClient.create(mini.clientConfig())) {
      owner = s3(endpoint, credentials("erin", admin.getS3Secret("erin", true).getSecret()));
      other = s3(endpoint, credentials("frank", admin.getS3Secret("frank", true).getSecret()));
    }
    anonymous = s3(endpoint, AnonymousCredentialsProvider.create());
    // The header names root, an administrator: the certificate decides who calls.
    otherNative = TroposClient.create(mini.userConfig("frank", dir), "root");
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {owner, other, anonymous, otherNative, mini}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        // Closing the rest matters more.
      }
    }
  }

  private static AwsCredentialsProvider credentials(String user, String secret) {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(user, secret));
  }

  private static S3Client s3(URI endpoint, AwsCredentialsProvider credentials) {
    return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private static S3Exception refusal(Executable call) {
    return assertThrows(S3Exception.class, call);
  }

  private static String read(S3Client client, String bucket, String key) {
    return client.getObjectAsBytes(g -> g.bucket(bucket).key(key)).asUtf8String();
  }

  private static List<String> list(S3Client client, String bucket) {
    return client.listObjectsV2(l -> l.bucket(bucket)).contents().stream().map(S3Object::key).toList();
  }

  private static void put(S3Client client, String bucket, String key, String content) {
    client.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString(content));
  }

  private static String statement(String effect, String principal, String action, String resource,
      String condition) {
    return "{\"Effect\": \"" + effect + "\", \"Principal\": " + principal + ", \"Action\": " + action
        + ", \"Resource\": \"arn:aws:s3:::" + resource + "\"" + (condition.isEmpty() ? "" : ", \"Condition\": "
        + condition) + "}";
  }

  private static String policy(String... statements) {
    return "{\"Version\": \"2012-10-17\", \"Statement\": [" + String.join(", ", statements) + "]}";
  }

  private static byte[] readNative(TroposClient client, String bucket, String key) throws Exception {
    try (InputStream in = client.readKey("s3v", bucket, key)) {
      return in.readAllBytes();
    }
  }

  @Test
  void aPolicyOpensExactlyWhatItNamesToWhomItNames() throws Exception {
    owner.createBucket(b -> b.bucket("shared"));
    put(owner, "shared", "public/a", "open");
    put(owner, "shared", "private/b", "closed");
    assertEquals(403, refusal(() -> read(other, "shared", "public/a")).statusCode());
    String document = policy(statement("Allow", "{\"AWS\": \"arn:aws:iam::000000000000:user/frank\"}",
        "\"s3:GetObject\"", "shared/public/*", ""), statement("Allow", "{\"AWS\": \"frank\"}", "\"s3:ListBucket\"",
        "shared", ""));
    owner.putBucketPolicy(p -> p.bucket("shared").policy(document));

    assertEquals(document, owner.getBucketPolicy(g -> g.bucket("shared")).policy(), "kept as given");
    assertEquals(false, owner.getBucketPolicyStatus(g -> g.bucket("shared")).policyStatus().isPublic());
    assertEquals("open", read(other, "shared", "public/a"));
    assertEquals(List.of("private/b", "public/a"), list(other, "shared"));
    assertEquals(403, refusal(() -> read(other, "shared", "private/b")).statusCode());
    assertEquals(403, refusal(() -> read(anonymous, "shared", "public/a")).statusCode(), "frank alone");
    assertEquals(403, refusal(() -> put(other, "shared", "public/a", "overwritten")).statusCode());
    assertEquals(403, refusal(() -> other.deleteObject(d -> d.bucket("shared").key("public/a"))).statusCode());
    assertEquals(403, refusal(() -> other.putBucketPolicy(p -> p.bucket("shared").policy(policy(statement(
        "Allow", "\"*\"", "\"s3:*\"", "shared/*", ""))))).statusCode());
    assertEquals(403, refusal(() -> anonymous.getBucketPolicy(g -> g.bucket("shared"))).statusCode());
    assertEquals("open", read(owner, "shared", "public/a"), "nothing changed");
    assertEquals(document, owner.getBucketPolicy(g -> g.bucket("shared")).policy(), "nothing changed");

    // The OM decides the same for the native path: frank's certificate reads what the policy names, no more.
    assertEquals("open", new String(readNative(otherNative, "shared", "public/a")));
    OmException refused = assertThrows(OmException.class, () -> readNative(otherNative, "shared", "private/b"));
    assertEquals(OmResult.PERMISSION_DENIED, refused.result(), refused.getMessage());
    refused = assertThrows(OmException.class, () -> otherNative.deleteKey("s3v", "shared", "public/a", false));
    assertEquals(OmResult.PERMISSION_DENIED, refused.result(), refused.getMessage());
    assertEquals("open", read(owner, "shared", "public/a"));
  }

  @Test
  void anExplicitDenyRefusesEvenTheOwnerWhoStillHoldsThePolicy() {
    owner.createBucket(b -> b.bucket("locked"));
    put(owner, "locked", "kept", "safe");
    owner.putBucketPolicy(p -> p.bucket("locked").policy(policy(statement("Allow", "\"*\"", "\"s3:*\"",
        "locked/*", ""), statement("Deny", "\"*\"", "[\"s3:DeleteObject\", \"s3:*Policy\"]", "locked*", ""))));
    assertEquals(403, refusal(() -> owner.deleteObject(d -> d.bucket("locked").key("kept"))).statusCode());
    assertEquals(403, refusal(() -> other.deleteObject(d -> d.bucket("locked").key("kept"))).statusCode());
    assertEquals(403, refusal(() -> other.getBucketPolicy(g -> g.bucket("locked"))).statusCode());
    assertEquals("safe", read(anonymous, "locked", "kept"), "the Allow stands beside the Deny");
    assertTrue(owner.getBucketPolicy(g -> g.bucket("locked")).policy().contains("Deny"),
        "the owner is never denied its policy");
    owner.deleteBucketPolicy(d -> d.bucket("locked"));
    assertEquals("NoSuchBucketPolicy", refusal(() -> owner.getBucketPolicy(g -> g.bucket("locked")))
        .awsErrorDetails().errorCode());
    assertEquals(403, refusal(() -> read(anonymous, "locked", "kept")).statusCode(), "the ACLs decide again");
    owner.deleteObject(d -> d.bucket("locked").key("kept"));
    assertEquals(List.of(), list(owner, "locked"));
  }

  @Test
  void conditionsAreTestedOnTheRequest() {
    owner.createBucket(b -> b.bucket("guarded"));
    put(owner, "guarded", "k", "v");
    // Nothing comes from 10.0.0.0/8 here, and nothing over TLS: every request is from 127.0.0.1, over HTTP.
    owner.putBucketPolicy(p -> p.bucket("guarded").policy(policy(statement("Allow", "\"*\"", "\"s3:GetObject\"",
        "guarded/*", "{\"Bool\": {\"aws:SecureTransport\": \"true\"}}"), statement("Deny", "\"*\"",
        "\"s3:PutObject\"", "guarded/*", "{\"NotIpAddress\": {\"aws:SourceIp\": \"10.0.0.0/8\"}}"))));
    assertEquals(403, refusal(() -> read(anonymous, "guarded", "k")).statusCode(), "HTTP is not TLS");
    assertEquals(403, refusal(() -> put(owner, "guarded", "k", "changed")).statusCode(), "127.0.0.1");
    assertEquals("v", read(owner, "guarded", "k"), "nothing was written");

    owner.putBucketPolicy(p -> p.bucket("guarded").policy(policy(statement("Allow", "\"*\"", "\"s3:GetObject\"",
        "guarded/*", "{\"IpAddress\": {\"aws:SourceIp\": [\"127.0.0.0/8\", \"::1/128\"]}}"))));
    assertEquals("v", read(anonymous, "guarded", "k"));
    assertEquals(false, owner.getBucketPolicyStatus(g -> g.bucket("guarded")).policyStatus().isPublic(),
        "an address condition makes a policy not public");
  }

  @Test
  void aMalformedPolicyIsRefusedAndNothingIsStored() {
    owner.createBucket(b -> b.bucket("strict"));
    for (String malformed : List.of("not json", "{\"Statement\": []}", policy(statement("Allow", "\"*\"",
        "\"s3:GetObject\"", "another-bucket/*", "")), policy(statement("Allow", "\"*\"", "\"s3:GetObject\"",
        "strict/*", "{\"NoSuchOperator\": {\"aws:SourceIp\": \"1.2.3.4\"}}")))) {
      S3Exception e = refusal(() -> owner.putBucketPolicy(p -> p.bucket("strict").policy(malformed)));
      assertEquals(400, e.statusCode(), malformed);
      assertEquals("MalformedPolicy", e.awsErrorDetails().errorCode(), malformed);
    }
    assertEquals(404, refusal(() -> owner.getBucketPolicy(g -> g.bucket("strict"))).statusCode());
    owner.putBucketPolicy(p -> p.bucket("strict").policy(policy(statement("Allow", "{\"AWS\": \"*\"}",
        "\"s3:ListBucket\"", "strict", ""))));
    assertTrue(owner.getBucketPolicyStatus(g -> g.bucket("strict")).policyStatus().isPublic());
    assertEquals(List.of(), list(anonymous, "strict"));
  }

  @Test
  void blockPublicAccessRefusesPublicAclsAndPoliciesAndIgnoresOrRestrictsThoseGivenBefore() {
    owner.createBucket(b -> b.bucket("exposed"));
    owner.putObject(p -> p.bucket("exposed").key("open").acl(ObjectCannedACL.PUBLIC_READ),
        RequestBody.fromString("public"));
    owner.putObject(p -> p.bucket("exposed").key("by-policy"), RequestBody.fromString("policy"));
    owner.putBucketPolicy(p -> p.bucket("exposed").policy(policy(statement("Allow", "\"*\"", "\"s3:GetObject\"",
        "exposed/by-policy", ""))));
    assertEquals("public", read(anonymous, "exposed", "open"));
    assertEquals("policy", read(anonymous, "exposed", "by-policy"));

    owner.putPublicAccessBlock(p -> p.bucket("exposed").publicAccessBlockConfiguration(c -> c.blockPublicAcls(true)
        .blockPublicPolicy(true).ignorePublicAcls(true).restrictPublicBuckets(true)));
    assertEquals(true, owner.getPublicAccessBlock(g -> g.bucket("exposed")).publicAccessBlockConfiguration()
        .restrictPublicBuckets());
    assertEquals(403, refusal(() -> read(anonymous, "exposed", "open")).statusCode(), "public grants ignored");
    assertEquals(403, refusal(() -> read(anonymous, "exposed", "by-policy")).statusCode(), "public policy restricted");
    assertEquals("policy", read(owner, "exposed", "by-policy"), "the owner still reads");
    assertEquals(403, refusal(() -> owner.putObject(p -> p.bucket("exposed").key("new").acl(
        ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("x"))).statusCode());
    assertEquals(403, refusal(() -> owner.putBucketAcl(a -> a.bucket("exposed").acl(BucketCannedACL.PUBLIC_READ)))
        .statusCode());
    assertEquals(403, refusal(() -> owner.putBucketPolicy(p -> p.bucket("exposed").policy(policy(statement("Allow",
        "\"*\"", "\"s3:*\"", "exposed/*", ""))))).statusCode());
    assertEquals(List.of("by-policy", "open"), list(owner, "exposed"), "nothing was written");
    assertTrue(owner.getBucketPolicy(g -> g.bucket("exposed")).policy().contains("by-policy"), "nor replaced");

    owner.deletePublicAccessBlock(d -> d.bucket("exposed"));
    assertEquals("NoSuchPublicAccessBlockConfiguration", refusal(() -> owner.getPublicAccessBlock(
        g -> g.bucket("exposed"))).awsErrorDetails().errorCode());
    assertEquals("public", read(anonymous, "exposed", "open"));
  }

  @Test
  void objectOwnershipDecidesWhoOwnsWhatAnotherUserWrites() {
    String writable = "{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:*\", \"Resource\": "
        + "[\"arn:aws:s3:::%1$s\", \"arn:aws:s3:::%1$s/*\"]}";
    owner.createBucket(b -> b.bucket("enforced").objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED));
    owner.putBucketPolicy(p -> p.bucket("enforced").policy(policy(String.format(writable, "enforced"))));
    put(other, "enforced", "theirs", "x");
    assertEquals("erin", owner.getObjectAcl(a -> a.bucket("enforced").key("theirs")).owner().id());
    assertEquals("AccessControlListNotSupported", refusal(() -> other.putObject(p -> p.bucket("enforced").key("acl")
        .acl(ObjectCannedACL.PRIVATE), RequestBody.fromString("x"))).awsErrorDetails().errorCode());
    assertEquals(400, refusal(() -> owner.putBucketAcl(a -> a.bucket("enforced").acl(BucketCannedACL.PRIVATE)))
        .statusCode());
    assertEquals(List.of("theirs"), list(owner, "enforced"));

    owner.createBucket(b -> b.bucket("preferred"));
    owner.putBucketOwnershipControls(p -> p.bucket("preferred").ownershipControls(c -> c.rules(r -> r
        .objectOwnership(ObjectOwnership.BUCKET_OWNER_PREFERRED))));
    owner.putBucketPolicy(p -> p.bucket("preferred").policy(policy(String.format(writable, "preferred"))));
    other.putObject(p -> p.bucket("preferred").key("given").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL),
        RequestBody.fromString("x"));
    put(other, "preferred", "kept", "x");
    assertEquals("erin", owner.getObjectAcl(a -> a.bucket("preferred").key("given")).owner().id());
    assertEquals("frank", other.getObjectAcl(a -> a.bucket("preferred").key("kept")).owner().id());

    owner.createBucket(b -> b.bucket("shown").acl(BucketCannedACL.PUBLIC_READ));
    assertEquals("InvalidBucketAclWithObjectOwnership", refusal(() -> owner.putBucketOwnershipControls(p -> p
        .bucket("shown").ownershipControls(c -> c.rules(r -> r.objectOwnership(
            ObjectOwnership.BUCKET_OWNER_ENFORCED))))).awsErrorDetails().errorCode());
    assertEquals("OwnershipControlsNotFoundError", refusal(() -> owner.getBucketOwnershipControls(g -> g
        .bucket("shown"))).awsErrorDetails().errorCode(), "nothing was set");
  }
}
