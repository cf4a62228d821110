package org.tropos.common.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tropos.common.acl.PolicyDocument.Decision;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.PublicAccessBlock;

/**
 * S3 policy documents as AWS reads and evaluates them: what is malformed, who and what a statement names,
 * conditions; bucket and identity policies decided together.
 */
class PolicyDocumentTest {
  private static final String BUCKET = "logs";

  private static String policy(String... statements) {
    return "{\"Version\": \"2012-10-17\", \"Statement\": [" + String.join(",", statements) + "]}";
  }

  private static String statement(String effect, String principal, String action, String resource,
      String condition) {
    return "{\"Effect\": \"" + effect + "\", \"Principal\": " + principal + ", \"Action\": \"" + action
        + "\", \"Resource\": \"arn:aws:s3:::" + resource + "\"" + (condition.isEmpty() ? "" : ", \"Condition\": "
        + condition) + "}";
  }

  private static Decision decide(String json, String user, String action, String resource,
      Map<String, List<String>> conditions) {
    return PolicyDocument.forBucket(json, BUCKET).decide(new PolicyRequest(user, action, resource, conditions));
  }

  private static Decision decide(String json, String user, String action, String resource) {
    return decide(json, user, action, resource, Map.of());
  }

  @Test
  void malformedPoliciesAreRefusedWithTheReason() {
    for (String json : List.of("[]", "{", "{\"Version\": \"2012-10-17\"}", "{\"Statement\": []}",
        policy(statement("Maybe", "\"*\"", "s3:GetObject", "logs/*", "")),
        policy(statement("Allow", "\"*\"", "iam:CreateUser", "logs/*", "")),
        policy(statement("Allow", "\"*\"", "s3:GetObject", "other/*", "")),
        policy(statement("Allow", "\"someone\"", "s3:GetObject", "logs/*", "")),
        policy(statement("Allow", "\"*\"", "s3:GetObject", "logs/*", "{\"StringSortOf\": {\"aws:Referer\": \"x\"}}")),
        policy("{\"Effect\": \"Allow\", \"NotPrincipal\": {\"AWS\": \"alt\"}, \"Action\": \"s3:*\","
            + " \"Resource\": \"arn:aws:s3:::logs\"}"),
        "{\"Version\": \"2001-01-01\", \"Statement\": []}")) {
      assertThrows(IllegalArgumentException.class, () -> PolicyDocument.forBucket(json, BUCKET), json);
    }
  }

  @Test
  void principalsNameEveryoneOrUsersByNameOrArn() {
    String everyone = policy(statement("Allow", "\"*\"", "s3:GetObject", "logs/*", ""));
    String everyAws = policy(statement("Allow", "{\"AWS\": \"*\"}", "s3:GetObject", "logs/*", ""));
    String alt = policy(statement("Allow", "{\"AWS\": [\"arn:aws:iam::123456789012:user/alt\", \"bob\"]}",
        "s3:GetObject", "logs/*", ""));
    assertEquals(Decision.ALLOW, decide(everyone, "", "s3:GetObject", "logs/a"));
    assertEquals(Decision.ALLOW, decide(everyAws, "", "s3:GetObject", "logs/a"));
    assertEquals(Decision.ALLOW, decide(alt, "alt", "s3:GetObject", "logs/a"));
    assertEquals(Decision.ALLOW, decide(alt, "bob", "s3:GetObject", "logs/a"));
    assertEquals(Decision.NONE, decide(alt, "carol", "s3:GetObject", "logs/a"));
    assertEquals(Decision.NONE, decide(alt, "", "s3:GetObject", "logs/a"));
  }

  @Test
  void actionsAndResourcesMatchByWildcardsActionsWithoutCase() {
    String json = policy(statement("Allow", "\"*\"", "s3:Get*", "logs/public/*", ""));
    assertEquals(Decision.ALLOW, decide(json, "alt", "s3:GetObject", "logs/public/a/b"));
    assertEquals(Decision.ALLOW, decide(json, "alt", "S3:GETOBJECTTAGGING", "logs/public/a"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:PutObject", "logs/public/a"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:GetObject", "logs/private/a"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:GetObject", "logs/Public/a"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:GetBucketAcl", "logs"));
  }

  @Test
  void anExplicitDenyWinsOverAnyAllow() {
    String json = policy(statement("Allow", "\"*\"", "s3:*", "logs/*", ""),
        statement("Deny", "{\"AWS\": \"alt\"}", "s3:DeleteObject", "logs/*", ""));
    assertEquals(Decision.DENY, decide(json, "alt", "s3:DeleteObject", "logs/a"));
    assertEquals(Decision.ALLOW, decide(json, "alt", "s3:PutObject", "logs/a"));
    assertEquals(Decision.ALLOW, decide(json, "bob", "s3:DeleteObject", "logs/a"));
  }

  @Test
  void notActionNotResourceAndNotPrincipalInvertTheirMatch() {
    String json = policy("{\"Effect\": \"Deny\", \"NotPrincipal\": {\"AWS\": \"admin\"}, \"NotAction\":"
        + " \"s3:GetObject\", \"NotResource\": \"arn:aws:s3:::logs/scratch/*\"}");
    assertEquals(Decision.DENY, decide(json, "alt", "s3:PutObject", "logs/a"));
    assertEquals(Decision.NONE, decide(json, "admin", "s3:PutObject", "logs/a"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:GetObject", "logs/a"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:PutObject", "logs/scratch/a"));
  }

  @Test
  void sourceAddressesMatchByCidr() {
    String json = policy(statement("Deny", "\"*\"", "s3:*", "logs/*",
        "{\"NotIpAddress\": {\"aws:SourceIp\": [\"10.1.0.0/16\", \"2001:db8::/32\"]}}"));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:GetObject", "logs/a", Map.of("aws:SourceIp",
        List.of("10.1.200.7"))));
    assertEquals(Decision.NONE, decide(json, "alt", "s3:GetObject", "logs/a", Map.of("aws:SourceIp",
        List.of("2001:db8:1::5"))));
    assertEquals(Decision.DENY, decide(json, "alt", "s3:GetObject", "logs/a", Map.of("aws:SourceIp",
        List.of("10.2.0.1"))));
    // A request without the key: a negated test holds.
    assertEquals(Decision.DENY, decide(json, "alt", "s3:GetObject", "logs/a"));
    assertFalse(PolicyCondition.inRange("localhost", "127.0.0.1"), "names are never looked up");
  }

  @Test
  void stringBoolNumericNullAndIfExistsConditions() {
    String secure = policy(statement("Deny", "\"*\"", "s3:*", "logs/*",
        "{\"Bool\": {\"aws:SecureTransport\": \"false\"}}"));
    assertEquals(Decision.DENY, decide(secure, "", "s3:GetObject", "logs/a", Map.of("aws:SecureTransport",
        List.of("false"))));
    assertEquals(Decision.NONE, decide(secure, "", "s3:GetObject", "logs/a", Map.of("aws:SecureTransport",
        List.of("true"))));

    String copies = policy(statement("Allow", "\"*\"", "s3:PutObject", "logs/*",
        "{\"StringLike\": {\"s3:x-amz-copy-source\": \"src/public/*\"}}"));
    assertEquals(Decision.ALLOW, decide(copies, "alt", "s3:PutObject", "logs/a", Map.of("S3:X-Amz-Copy-Source",
        List.of("src/public/x"))));
    assertEquals(Decision.NONE, decide(copies, "alt", "s3:PutObject", "logs/a", Map.of("s3:x-amz-copy-source",
        List.of("src/private/x"))));
    assertEquals(Decision.NONE, decide(copies, "alt", "s3:PutObject", "logs/a"));

    String small = policy(statement("Allow", "\"*\"", "s3:ListBucket", "logs",
        "{\"NumericLessThanEquals\": {\"s3:max-keys\": \"10\"}}"));
    assertEquals(Decision.ALLOW, decide(small, "alt", "s3:ListBucket", "logs", Map.of("s3:max-keys",
        List.of("10"))));
    assertEquals(Decision.NONE, decide(small, "alt", "s3:ListBucket", "logs", Map.of("s3:max-keys",
        List.of("11"))));

    String unencrypted = policy(statement("Deny", "\"*\"", "s3:PutObject", "logs/*",
        "{\"Null\": {\"s3:x-amz-server-side-encryption\": \"true\"}}"));
    assertEquals(Decision.DENY, decide(unencrypted, "alt", "s3:PutObject", "logs/a"));
    assertEquals(Decision.NONE, decide(unencrypted, "alt", "s3:PutObject", "logs/a", Map.of(
        "s3:x-amz-server-side-encryption", List.of("AES256"))));

    String referer = policy(statement("Allow", "\"*\"", "s3:GetObject", "logs/*",
        "{\"StringLikeIfExists\": {\"aws:Referer\": \"http://www.example.com/*\"}}"));
    assertEquals(Decision.ALLOW, decide(referer, "", "s3:GetObject", "logs/a"));
    assertEquals(Decision.ALLOW, decide(referer, "", "s3:GetObject", "logs/a", Map.of("aws:Referer",
        List.of("http://www.example.com/x"))));
    assertEquals(Decision.NONE, decide(referer, "", "s3:GetObject", "logs/a", Map.of("aws:Referer",
        List.of("http://example.com"))));
  }

  @Test
  void existingObjectTagsComeFromTheObjectsMetadata() {
    String json = policy(statement("Allow", "\"*\"", "s3:GetObject", "logs/*",
        "{\"StringEquals\": {\"s3:ExistingObjectTag/security\": \"public\"}}"));
    PolicyDocument parsed = PolicyDocument.forBucket(json, BUCKET);
    PolicyRequest request = new PolicyRequest("alt", "s3:GetObject", "logs/a", Map.of());
    assertEquals(Decision.ALLOW, parsed.decide(request.withTagsOf(Map.of("tag:security", "public",
        "content-type", "text/plain"))));
    assertEquals(Decision.NONE, parsed.decide(request.withTagsOf(Map.of("tag:security", "private"))));
    assertEquals(Decision.NONE, parsed.decide(request.withTagsOf(Map.of("security", "public"))));
  }

  @Test
  void aPolicyIsPublicWhenItAllowsEveryoneUnconditionally() {
    assertTrue(PolicyDocument.forBucket(policy(statement("Allow", "{\"AWS\": \"*\"}", "s3:ListBucket", "logs", "")),
        BUCKET).isPublic());
    assertFalse(PolicyDocument.forBucket(policy(statement("Allow", "{\"AWS\": \"*\"}", "s3:ListBucket", "logs",
        "{\"IpAddress\": {\"aws:SourceIp\": \"10.0.0.0/32\"}}")), BUCKET).isPublic());
    assertFalse(PolicyDocument.forBucket(policy(statement("Allow", "{\"AWS\": \"arn:aws:iam::s3tenant1:root\"}",
        "s3:ListBucket", "logs", "")), BUCKET).isPublic());
    assertFalse(PolicyDocument.forBucket(policy(statement("Deny", "\"*\"", "s3:ListBucket", "logs", "")), BUCKET)
        .isPublic());
  }

  @Test
  void aBucketsOwnerIsNeverDeniedItsPolicyButIsDeniedTheRest() {
    S3Policies policies = new S3Policies();
    BucketInfo bucket = BucketInfo.newBuilder().setName(BUCKET).setOwner("owner").setPolicy(policy(statement("Deny",
        "\"*\"", "s3:*", "logs", ""))).build();
    PolicyRequest getPolicy = new PolicyRequest("owner", S3Actions.GET_BUCKET_POLICY, "logs", Map.of());
    PolicyRequest list = new PolicyRequest("owner", S3Actions.LIST_BUCKET, "logs", Map.of());
    assertEquals(Decision.NONE, policies.decide(bucket, getPolicy));
    assertEquals(Decision.DENY, policies.decide(bucket, new PolicyRequest("alt", S3Actions.GET_BUCKET_POLICY,
        "logs", Map.of())));
    assertEquals(Decision.DENY, policies.decide(bucket, list));
    assertEquals(Decision.NONE, policies.decide(bucket.toBuilder().clearPolicy().build(), list));
  }

  @Test
  void restrictingPublicBucketsLetsAPublicPolicyAllowItsOwnerAlone() {
    S3Policies policies = new S3Policies();
    BucketInfo open = BucketInfo.newBuilder().setName(BUCKET).setOwner("owner").setPolicy(policy(statement("Allow",
        "\"*\"", "s3:GetObject", "logs/*", ""))).build();
    BucketInfo restricted = open.toBuilder().setPublicAccessBlock(PublicAccessBlock.newBuilder()
        .setRestrictPublicBuckets(true)).build();
    PolicyRequest anonymousRead = new PolicyRequest("", S3Actions.GET_OBJECT, "logs/a", Map.of());
    assertEquals(Decision.ALLOW, policies.decide(open, anonymousRead));
    assertEquals(Decision.NONE, policies.decide(restricted, anonymousRead));
    assertEquals(Decision.ALLOW, policies.decide(restricted, new PolicyRequest("owner", S3Actions.GET_OBJECT,
        "logs/a", Map.of())));
    BucketInfo toAlt = restricted.toBuilder().setPolicy(policy(statement("Allow", "{\"AWS\": \"alt\"}",
        "s3:GetObject", "logs/*", ""))).build();
    assertEquals(Decision.ALLOW, policies.decide(toAlt, new PolicyRequest("alt", S3Actions.GET_OBJECT, "logs/a",
        Map.of())), "a policy naming users is not public");
  }

  @Test
  void actionsOnAVersionAreNamedAsAwsNamesThem() {
    assertEquals("s3:GetObjectVersion", S3Actions.onVersion(S3Actions.GET_OBJECT, "3"));
    assertEquals("s3:PutObjectVersionTagging", S3Actions.onVersion(S3Actions.PUT_OBJECT_TAGGING, "3"));
    assertEquals(S3Actions.GET_OBJECT, S3Actions.onVersion(S3Actions.GET_OBJECT, ""));
    assertEquals(S3Actions.PUT_OBJECT, S3Actions.onVersion(S3Actions.PUT_OBJECT, "3"));
  }

  @Test
  void identityPoliciesNameNoPrincipalAndSpeakOfAnyBucket() {
    String readAll = "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"s3:GetObject\", \"Resource\": \"*\"}}";
    PolicyDocument identity = PolicyDocument.forIdentity(readAll);
    assertEquals(Decision.ALLOW, identity.decide(new PolicyRequest("alt", S3Actions.GET_OBJECT, "any/key", Map.of())));
    assertEquals(Decision.NONE, identity.decide(new PolicyRequest("alt", S3Actions.PUT_OBJECT, "any/key", Map.of())));
    PolicyDocument.forIdentity(policy("{\"Effect\": \"Deny\", \"Action\": \"s3:*\", \"Resource\":"
        + " \"arn:aws:s3:::other/*\"}"));
    for (String json : List.of(policy(statement("Allow", "\"*\"", "s3:GetObject", "logs/*", "")),
        policy("{\"Effect\": \"Deny\", \"NotPrincipal\": {\"AWS\": \"alt\"}, \"Action\": \"s3:*\","
            + " \"Resource\": \"*\"}"),
        policy("{\"Effect\": \"Allow\", \"Action\": \"s3:*\", \"Resource\": \"arn:aws:iam::1:user/x\"}"))) {
      assertThrows(IllegalArgumentException.class, () -> PolicyDocument.forIdentity(json), json);
    }
    assertThrows(IllegalArgumentException.class, () -> PolicyDocument.forBucket(readAll, BUCKET),
        "a bucket's policy names its principals and its bucket");
  }

  @Test
  void bucketAndIdentityPoliciesDecideTogetherADenyInEitherWinning() {
    S3Policies policies = new S3Policies();
    String allowRead = "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"s3:GetObject\","
        + " \"Resource\": \"arn:aws:s3:::logs/*\"}]}";
    String denyAll = "{\"Statement\": [{\"Effect\": \"Deny\", \"Action\": \"s3:*\", \"Resource\": \"*\"}]}";
    BucketInfo plain = BucketInfo.newBuilder().setName(BUCKET).setOwner("owner").build();
    BucketInfo open = plain.toBuilder().setPolicy(policy(statement("Allow", "\"*\"", "s3:GetObject", "logs/*",
        ""))).build();
    PolicyRequest read = new PolicyRequest("alt", S3Actions.GET_OBJECT, "logs/a", Map.of());
    assertEquals(Decision.NONE, policies.decide(plain, List.of(), read));
    assertEquals(Decision.ALLOW, policies.decide(plain, List.of(allowRead), read));
    assertEquals(Decision.ALLOW, policies.decide(open, List.of(), read));
    assertEquals(Decision.DENY, policies.decide(open, List.of(allowRead, denyAll), read));
    assertEquals(Decision.DENY, policies.decide(null, List.of(denyAll), new PolicyRequest("alt",
        S3Actions.CREATE_BUCKET, "new", Map.of())));
    assertEquals(Decision.NONE, policies.decide(plain, List.of("no longer a policy"), read), "ignored");
    assertEquals(Decision.DENY, Decision.ALLOW.and(Decision.DENY));
    assertEquals(Decision.ALLOW, Decision.NONE.and(Decision.ALLOW));
    assertEquals(Decision.NONE, Decision.NONE.and(Decision.NONE));
  }
}
