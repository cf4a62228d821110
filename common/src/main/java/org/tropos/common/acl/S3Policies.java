package org.tropos.common.acl;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.acl.PolicyDocument.Decision;
import org.tropos.proto.om.BucketInfo;

/**
 * Decides requests by S3 policies, as the OM and the S3 gateway both must: the bucket's policy and the identity
 * policies attached to the caller and its groups, taken together as AWS takes them (a Deny in any wins, else an
 * Allow in any grants, else they are silent and the ACLs decide). Parses each stored document once (at most
 * {@value #MOST} kept; at that size the memory starts again empty). A bucket's owner stays able to read, change and
 * delete its bucket's policy whatever that policy denies (S3's rule, so that no policy locks its bucket for good).
 * Where the bucket's Block Public Access restricts public buckets, a public bucket policy allows nobody but the
 * owner.
 *
 * <p>Thread-safe.
 */
public final class S3Policies {
  private static final Logger LOG = LoggerFactory.getLogger(S3Policies.class);
  private static final int MOST = 4096;

  /** A document as stored: of {@code bucket}'s policy, or (bucket null) an identity policy. */
  private record Stored(String bucket, String json) {
  }

  /** Parsed documents; one that no longer parses is kept as empty and decides nothing (the ACLs do). */
  private final Map<Stored, Optional<PolicyDocument>> parsed = new ConcurrentHashMap<>();

  /**
   * What {@code bucket}'s policy (null or none: nothing) and the {@code identity} policies of the caller say of
   * {@code request} together.
   */
  public Decision decide(BucketInfo bucket, List<String> identity, PolicyRequest request) {
    Decision decision = bucket == null ? Decision.NONE : decide(bucket, request);
    for (String json : identity) {
      if (decision == Decision.DENY) {
        break;
      }
      decision = decision.and(policy(new Stored(null, json)).map(p -> p.decide(request)).orElse(Decision.NONE));
    }
    return decision;
  }

  /** What {@code bucket}'s policy (none: NONE) says of {@code request}. */
  public Decision decide(BucketInfo bucket, PolicyRequest request) {
    if (bucket.getPolicy().isEmpty()) {
      return Decision.NONE;
    }
    boolean owner = !request.user().isEmpty() && request.user().equals(bucket.getOwner());
    Optional<PolicyDocument> policy = bucketPolicy(bucket);
    Decision decision = policy.map(p -> p.decide(request)).orElse(Decision.NONE);
    if (decision == Decision.DENY && owner && S3Actions.managesPolicy(request.action())) {
      return Decision.NONE;
    }
    boolean restricted = bucket.hasPublicAccessBlock() && bucket.getPublicAccessBlock().getRestrictPublicBuckets();
    if (decision == Decision.ALLOW && restricted && !owner && policy.get().isPublic()) {
      return Decision.NONE;
    }
    return decision;
  }

  /** Whether {@code bucket}'s policy allows everyone (GetBucketPolicyStatus). */
  public boolean isPublic(BucketInfo bucket) {
    return !bucket.getPolicy().isEmpty() && bucketPolicy(bucket).map(PolicyDocument::isPublic).orElse(false);
  }

  private Optional<PolicyDocument> bucketPolicy(BucketInfo bucket) {
    return policy(new Stored(bucket.getName(), bucket.getPolicy()));
  }

  private Optional<PolicyDocument> policy(Stored stored) {
    Optional<PolicyDocument> policy = parsed.get(stored);
    if (policy == null) {
      try {
        policy = Optional.of(stored.bucket() == null ? PolicyDocument.forIdentity(stored.json())
            : PolicyDocument.forBucket(stored.json(), stored.bucket()));
      } catch (IllegalArgumentException e) {
        // Every policy was checked when it was set; one a later version reads otherwise leaves the ACLs to decide.
        LOG.warn("The {} cannot be read and is ignored: {}", stored.bucket() == null ? "identity policy "
            + stored.json() : "policy of bucket " + stored.bucket(), e.getMessage());
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
