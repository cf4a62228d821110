package org.tropos.s3.auth;

import java.util.concurrent.ConcurrentHashMap;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Secret;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;

/**
 * Secrets from the OM, remembered for {@link #TTL_MILLIS} so a burst of requests costs one lookup; a revoked or
 * changed secret therefore takes effect within that time.
 */
public final class OmCredentials implements Credentials {
  static final long TTL_MILLIS = 10_000;

  private record Cached(Credential credential, long fetchedAt) {
  }

  private final TroposClient om;
  private final Clock clock;
  private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

  public OmCredentials(TroposClient om, Clock clock) {
    this.om = om;
    this.clock = clock;
  }

  @Override
  public Credential of(String accessId) throws S3Error {
    long now = clock.monotonicMillis();
    Cached cached = cache.get(accessId);
    if (cached != null && now - cached.fetchedAt() < TTL_MILLIS) {
      return cached.credential();
    }
    try {
      S3Secret secret = om.getS3Secret(accessId, false);
      Credential credential = new Credential(secret.getSecret(), secret.getAdministrator());
      cache.put(accessId, new Cached(credential, now));
      return credential;
    } catch (OmException e) {
      cache.remove(accessId);
      if (e.result() == OmResult.S3_SECRET_NOT_FOUND || e.result() == OmResult.INVALID_REQUEST) {
        throw S3ErrorCode.INVALID_ACCESS_KEY_ID.error("The AWS access key Id you provided does not exist in our"
            + " records.");
      }
      throw S3ErrorCode.SERVICE_UNAVAILABLE.error("cannot reach the OM for credentials: " + e.getMessage());
    }
  }
}
