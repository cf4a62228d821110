package org.tropos.s3.auth;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.S3Signatures;
import org.tropos.common.util.Clock;
import org.tropos.common.util.ShortMemory;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.CheckS3SignatureResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * Signatures checked by the OM. A V4 scope's key, which the OM answers with a match, is remembered for
 * {@link #TTL_MILLIS}, so a burst of one user's requests costs one call, and the chunks of an aws-chunked body are
 * checked here; a revoked or changed secret therefore takes effect within that time. Bounded: scopes clients make
 * up cannot grow the memory past {@value #MOST} entries (at that size it starts again empty).
 *
 * <p>Thread-safe.
 */
public final class OmS3Users implements S3Users {
  private static final Logger LOG = LoggerFactory.getLogger(OmS3Users.class);
  static final long TTL_MILLIS = 10_000;
  private static final int MOST = 1024;

  private record Scope(String accessId, String date, String region, String service) {
  }

  private final TroposClient om;
  private final ShortMemory<Scope, Proven> scopes;

  public OmS3Users(TroposClient om, Clock clock) {
    this.om = om;
    this.scopes = new ShortMemory<>(clock, TTL_MILLIS, MOST);
  }

  @Override
  public Proven checkV4(String accessId, String date, String region, String service, String stringToSign,
      String signature) throws S3Error {
    Scope scope = new Scope(accessId, date, region, service);
    Proven known = scopes.get(scope);
    if (known != null) {
      if (!S3Signatures.same(S3Signatures.v4Signature(known.signingKey(), stringToSign), signature)) {
        throw S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.error();
      }
      return known;
    }
    Proven proven = ask(CheckS3SignatureRequest.newBuilder().setAccessId(accessId).setDate(date).setRegion(region)
        .setService(service).addStringToSign(stringToSign).setSignature(signature));
    scopes.remember(scope, proven);
    return proven;
  }

  @Override
  public Proven checkV2(String accessId, List<String> stringsToSign, String signature) throws S3Error {
    return ask(CheckS3SignatureRequest.newBuilder().setAccessId(accessId).addAllStringToSign(stringsToSign)
        .setSignature(signature));
  }

  @Override
  public void requireKnown(String accessId) throws S3Error {
    try {
      if (!om.hasS3Secret(accessId)) {
        throw unknown();
      }
    } catch (OmException e) {
      throw failure(e);
    }
  }

  private Proven ask(CheckS3SignatureRequest.Builder request) throws S3Error {
    try {
      CheckS3SignatureResponse answer = om.checkS3Signature(request.build());
      return new Proven(answer.getAdministrator(), answer.getIdentityPoliciesList(), answer.getSigningKey()
          .toByteArray());
    } catch (OmException e) {
      if (e.result() == OmResult.S3_SIGNATURE_MISMATCH) {
        throw S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.error();
      }
      throw failure(e);
    }
  }

  private static S3Error failure(OmException e) {
    if (e.result() == OmResult.S3_SECRET_NOT_FOUND || e.result() == OmResult.INVALID_REQUEST) {
      return unknown();
    }
    if (e.result() == OmResult.PERMISSION_DENIED) {
      LOG.error("The OM refuses to check S3 signatures for this gateway: it checks them only for a gateway with an"
          + " S3 gateway certificate of the cluster: {}", e.getMessage());
      return S3ErrorCode.SERVICE_UNAVAILABLE.error("the OM does not check S3 signatures for this gateway");
    }
    return S3ErrorCode.SERVICE_UNAVAILABLE.error("cannot reach the OM to check the signature: " + e.getMessage());
  }

  private static S3Error unknown() {
    return S3ErrorCode.INVALID_ACCESS_KEY_ID.error("The AWS access key Id you provided does not exist in our"
        + " records.");
  }
}
