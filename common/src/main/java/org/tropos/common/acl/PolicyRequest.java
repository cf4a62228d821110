package org.tropos.common.acl;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a bucket policy is asked about: who ({@code ""}: an anonymous caller), the S3 action ({@code s3:GetObject}),
 * the resource ({@code bucket} or {@code bucket/key}) and the values of the request's condition keys
 * ({@code aws:SourceIp}, {@code aws:SecureTransport}, {@code s3:prefix}, {@code s3:x-amz-acl}, ...; names compared
 * without case, as AWS does). Every S3 request builds one, and most are decided without a condition looked at, so
 * the conditions are kept as given (not copied) and searched without case only when a policy asks.
 */
public record PolicyRequest(String user, String action, String resource, Map<String, List<String>> conditions) {
  /** The prefix of the metadata entries that hold an object's S3 tags ({@code tag:<name>}). */
  public static final String TAG_METADATA = "tag:";
  private static final String EXISTING_TAG = "s3:ExistingObjectTag/";

  public PolicyRequest {
    conditions = Collections.unmodifiableMap(conditions);
  }

  /** The resource a request on {@code key} ("": on the bucket itself) of {@code bucket} names. */
  public static String resource(String bucket, String key) {
    return key.isEmpty() ? bucket : bucket + "/" + key;
  }

  /**
   * The same request with the tags of the object it acts on ({@code s3:ExistingObjectTag/<name>}), from the
   * object's {@code metadata}.
   */
  public PolicyRequest withTagsOf(Map<String, String> metadata) {
    Map<String, List<String>> all = new HashMap<>(conditions);
    metadata.forEach((name, value) -> {
      if (name.startsWith(TAG_METADATA)) {
        replace(all, EXISTING_TAG + name.substring(TAG_METADATA.length()), value);
      }
    });
    return new PolicyRequest(user, action, resource, all);
  }

  /** The same request as {@code action} on {@code resource}, with condition {@code key} set to {@code value}. */
  public PolicyRequest asking(String action, String resource, String key, String value) {
    Map<String, List<String>> all = new HashMap<>(conditions);
    replace(all, key, value);
    return new PolicyRequest(user, action, resource, all);
  }

  /** The values of condition key {@code key}; null when the request has none. */
  List<String> values(String key) {
    List<String> exact = conditions.get(key);
    if (exact != null) {
      return exact;
    }
    for (Map.Entry<String, List<String>> entry : conditions.entrySet()) {
      if (entry.getKey().equalsIgnoreCase(key)) {
        return entry.getValue();
      }
    }
    return null;
  }

  /** Sets {@code key} to {@code value} in {@code conditions}, in place of the key in any case. */
  private static void replace(Map<String, List<String>> conditions, String key, String value) {
    conditions.keySet().removeIf(key::equalsIgnoreCase);
    conditions.put(key, List.of(value));
  }
}
