package org.tropos.common.acl;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides requests by buckets' policies, as the OM and the S3 gateway both must: parses each stored policy once
 * (at most {@value #MOST} kept; at that size the memory starts again empty) and keeps a bucket's owner able to read,
 * change and delete its policy whatever the policy denies (S3's rule, so that no policy locks its bucket for good).
 *
 * <p>Thread-safe.
 */
public final class BucketPolicies {
  private static final Logger LOG = LoggerFactory.getLogger(BucketPolicies.class);
  private static final int MOST = 4096;

  private record Stored(String bucket, String json) {
  }

  /** Parsed policies; a policy that no longer parses is kept as null and decides nothing (the ACLs do). */
  private final Map<Stored, Optional<BucketPolicy>> parsed = new ConcurrentHashMap<>();

  /**
   * What the policy {@code json} of {@code bucket} (empty: none) says of {@code request}, for a caller that owns the
   * bucket or not ({@code owner}).
   */
  public BucketPolicy.Decision decide(String bucket, String json, PolicyRequest request, boolean owner) {
    if (json.isEmpty()) {
      return BucketPolicy.Decision.NONE;
    }
    BucketPolicy.Decision decision = policy(bucket, json).map(p -> p.decide(request))
        .orElse(BucketPolicy.Decision.NONE);
    return decision == BucketPolicy.Decision.DENY && owner && S3Actions.managesPolicy(request.action())
        ? BucketPolicy.Decision.NONE : decision;
  }

  /** Whether the policy {@code json} of {@code bucket} makes it public (GetBucketPolicyStatus). */
  public boolean isPublic(String bucket, String json) {
    return !json.isEmpty() && policy(bucket, json).map(BucketPolicy::isPublic).orElse(false);
  }

  private Optional<BucketPolicy> policy(String bucket, String json) {
    Stored stored = new Stored(bucket, json);
    Optional<BucketPolicy> policy = parsed.get(stored);
    if (policy == null) {
      try {
        policy = Optional.of(BucketPolicy.parse(json, bucket));
      } catch (IllegalArgumentException e) {
        // Every policy was checked when it was set; one a later version reads otherwise leaves the ACLs to decide.
        LOG.warn("The policy of bucket {} cannot be read and is ignored: {}", bucket, e.getMessage());
        policy = Optional.empty();
      }
      if (parsed.size() >= MOST) {
        parsed.clear();
      }
      parsed.put(stored, policy);
    }
    return policy;
  }
}
