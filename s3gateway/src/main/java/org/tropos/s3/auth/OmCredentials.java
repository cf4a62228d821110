package org.tropos.s3.auth;

import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
  private static final Logger LOG = LoggerFactory.getLogger(OmCredentials.class);
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
      if (e.result() == OmResult.PERMISSION_DENIED) {
        LOG.error("The OM refuses the gateway another user's S3 secret: run the gateway as a user the OM counts"
            + " among its administrators (ozone.administrators in the OM's configuration): {}", e.getMessage());
        throw S3ErrorCode.SERVICE_UNAVAILABLE.error("the gateway may not read S3 secrets: it does not run as an"
            + " administrator of the OM");
      }
      throw S3ErrorCode.SERVICE_UNAVAILABLE.error("cannot reach the OM for credentials: " + e.getMessage());
    }
  }
}
