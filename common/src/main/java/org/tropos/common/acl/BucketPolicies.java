package org.tropos.common.acl;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.proto.om.BucketInfo;

/**
 * Decides requests by buckets' policies, as the OM and the S3 gateway both must: parses each stored policy once
 * (at most {@value #MOST} kept; at that size the memory starts again empty) and keeps a bucket's owner able to read,
 * change and delete its policy whatever the policy denies (S3's rule, so that no policy locks its bucket for good).
 * Where the bucket's Block Public Access restricts public buckets, a public policy allows nobody but the owner.
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

  /** What {@code bucket}'s policy (none: NONE) says of {@code request}. */
  public BucketPolicy.Decision decide(BucketInfo bucket, PolicyRequest request) {
    if (bucket.getPolicy().isEmpty()) {
      return BucketPolicy.Decision.NONE;
    }
    boolean owner = !request.user().isEmpty() && request.user().equals(bucket.getOwner());
    Optional<BucketPolicy> policy = policy(bucket.getName(), bucket.getPolicy());
    BucketPolicy.Decision decision = policy.map(p -> p.decide(request)).orElse(BucketPolicy.Decision.NONE);
    if (decision == BucketPolicy.Decision.DENY && owner && S3Actions.managesPolicy(request.action())) {
      return BucketPolicy.Decision.NONE;
    }
    boolean restricted = bucket.hasPublicAccessBlock() && bucket.getPublicAccessBlock().getRestrictPublicBuckets();
    if (decision == BucketPolicy.Decision.ALLOW && restricted && !owner && policy.get().isPublic()) {
      return BucketPolicy.Decision.NONE;
    }
    return decision;
  }

  /** Whether {@code bucket}'s policy allows everyone (GetBucketPolicyStatus). */
  public boolean isPublic(BucketInfo bucket) {
    return !bucket.getPolicy().isEmpty() && policy(bucket.getName(), bucket.getPolicy()).map(BucketPolicy::isPublic)
        .orElse(false);
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
