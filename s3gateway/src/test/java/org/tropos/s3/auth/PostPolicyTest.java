package org.tropos.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

class PostPolicyTest {
  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

  private static PostPolicy policy(String json) throws S3Error {
    return PostPolicy.parse(Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
  }

  private static String withConditions(String conditions) {
    return "{\"expiration\": \"2026-11-25T11:00:00.000Z\", \"conditions\": [" + conditions + "]}";
  }

  private static Map<String, String> fields(String... namesAndValues) {
    Map<String, String> fields = new HashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return fields;
  }

  private static S3ErrorCode failure(PostPolicy policy, Map<String, String> fields) {
    return assertThrows(S3Error.class, () -> policy.check(fields, NOW)).errorCode();
  }

  private static S3ErrorCode parseFailure(String json) {
    return assertThrows(S3Error.class, () -> policy(json)).errorCode();
  }

  @Test
  void aFormTheConditionsAllowPasses() throws Exception {
    PostPolicy policy = policy(withConditions("{\"BuCkEt\": \"photos\"}, [\"StArTs-WiTh\", \"$Key\", \"user/\"],"
        + " {\"acl\": \"private\"}, [\"starts-with\", \"$Content-Type\", \"image/\"],"
        + " [\"content-length-range\", 10, 1024], [\"content-length-range\", \"0\", 2048]"));
    policy.check(fields("bucket", "photos", "key", "user/a.jpg", "acl", "private", "content-type",
        "image/jpeg, image/png", "policy", "p", "signature", "s", "awsaccesskeyid", "a", "x-ignore-me", "1"), NOW);
    assertEquals(10, policy.minLength());
    assertEquals(1024, policy.maxLength());
  }

  @Test
  void aConditionThatFailsOrAFieldNoConditionNamesIsDenied() throws Exception {
    PostPolicy policy = policy(withConditions("{\"bucket\": \"photos\"}, [\"starts-with\", \"$key\", \"user/\"],"
        + " [\"eq\", \"$x-amz-meta-tag\", \"\"]"));
    assertEquals(S3ErrorCode.ACCESS_DENIED, failure(policy, fields("bucket", "other", "key", "user/a")));
    assertEquals(S3ErrorCode.ACCESS_DENIED, failure(policy, fields("bucket", "photos", "key", "admin/a")));
    assertEquals(S3ErrorCode.ACCESS_DENIED, failure(policy, fields("bucket", "photos", "key", "user/a",
        "x-amz-meta-tag", "set")));
    assertEquals(S3ErrorCode.ACCESS_DENIED, failure(policy, fields("bucket", "photos", "key", "user/a",
        "acl", "public-read")));
    policy.check(fields("bucket", "photos", "key", "user/a"), NOW);
    PostPolicy needsMeta = policy(withConditions("{\"bucket\": \"b\"}, [\"starts-with\", \"$x-amz-meta-foo\","
        + " \"bar\"]"));
    assertEquals(S3ErrorCode.ACCESS_DENIED, failure(needsMeta, fields("bucket", "b")));
  }

  @Test
  void anExpiredPolicyIsDenied() throws Exception {
    PostPolicy policy = policy("{\"expiration\": \"2026-11-25T09:59:59Z\", \"conditions\": [{\"bucket\": \"b\"}]}");
    assertEquals(S3ErrorCode.ACCESS_DENIED, failure(policy, fields("bucket", "b")));
  }

  @Test
  void whatIsNotAPolicyIsInvalid() {
    S3ErrorCode invalid = S3ErrorCode.INVALID_POLICY_DOCUMENT;
    assertEquals(invalid, assertThrows(S3Error.class, () -> PostPolicy.parse("not base64 !")).errorCode());
    assertEquals(invalid, parseFailure("[1, 2]"));
    assertEquals(invalid, parseFailure("{\"conditions\": []}"));
    assertEquals(invalid, parseFailure("{\"EXPIRATION\": \"2026-11-25T11:00:00Z\", \"conditions\": []}"));
    assertEquals(invalid, parseFailure("{\"expiration\": \"2026-11-25 11:00:00+00:00\", \"conditions\": []}"));
    assertEquals(invalid, parseFailure("{\"expiration\": \"2026-11-25T11:00:00Z\", \"CONDITIONS\": []}"));
    assertEquals(invalid, parseFailure(withConditions("{}")));
    assertEquals(invalid, parseFailure(withConditions("[\"content-length-range\", 0]")));
    assertEquals(invalid, parseFailure(withConditions("[\"content-length-range\", -1, 0]")));
    assertEquals(invalid, parseFailure(withConditions("[\"content-length-range\", 5, 4]")));
    assertEquals(invalid, parseFailure(withConditions("[\"matches\", \"$key\", \"a\"]")));
    assertEquals(invalid, parseFailure(withConditions("[\"eq\", \"key\", \"a\"]")));
  }
}
