package org.tropos.om.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Metadata;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.common.security.AuthenticatedUser;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.AuthenticationException;
import org.tropos.common.security.S3Signatures;
import org.tropos.common.security.UserAuthenticator;
import org.tropos.common.util.Clock;
import org.tropos.common.util.ShortMemory;
import org.tropos.proto.om.CheckS3SignatureRequest;

/**
 * Proves the S3 user of a gateway's call by the signature of the S3 request it serves ({@link S3RequestProofs}),
 * checked against the user's secret as CheckS3Signature checks it. A V4 scope's key is remembered for
 * {@link #TTL_MILLIS}, so the calls of a user's requests cost one HMAC each, not a read and unsealing of the secret
 * (a revoked secret then takes effect within that time); bounded to {@value #MOST} scopes (at that size it starts
 * again empty).
 *
 * <p>The gateway checks a request's time before it forwards the proof; a V4 proof whose scope's day lies more
 * than a presigned URL's longest life in the past, or in the future, proves nobody here too, so a captured proof
 * does not outlive the request it came from by more than that.
 *
 * <p>Thread-safe.
 */
final class S3RequestAuthenticator implements UserAuthenticator {
  static final long TTL_MILLIS = 10_000;
  private static final int MOST = 1024;
  private static final Duration OLDEST = Duration.ofDays(8);
  private static final Duration NEWEST = Duration.ofDays(1);
  private static final DateTimeFormatter SCOPE_DAY = DateTimeFormatter.BASIC_ISO_DATE;

  /** The secret of an access id, or S3_SECRET_NOT_FOUND. */
  @FunctionalInterface
  interface Secrets {
    String secret(String accessId) throws OmException;
  }

  private record Scope(String accessId, String date, String region, String service) {
  }

  private final Secrets secrets;
  private final Clock clock;
  private final ShortMemory<Scope, byte[]> scopes;

  S3RequestAuthenticator(Secrets secrets, Clock clock) {
    this.secrets = secrets;
    this.clock = clock;
    this.scopes = new ShortMemory<>(clock, TTL_MILLIS, MOST);
  }

  @Override
  public Optional<AuthenticatedUser> authenticate(Metadata headers) throws AuthenticationException {
    byte[] header = headers.get(S3RequestProofs.HEADER);
    if (header == null) {
      return Optional.empty();
    }
    CheckS3SignatureRequest proof;
    try {
      proof = CheckS3SignatureRequest.parseFrom(header);
    } catch (InvalidProtocolBufferException e) {
      throw new AuthenticationException("the S3 request's proof cannot be read", e);
    }
    if (proof.getAccessId().isEmpty()) {
      throw new AuthenticationException("the S3 request's proof names no access id");
    }
    try {
      if (S3SignatureCheck.v4(proof)) {
        S3SignatureCheck.requireMatch(proof, scopeKey(proof), null);
      } else {
        S3SignatureCheck.requireMatch(proof, null, secrets.secret(proof.getAccessId()));
      }
    } catch (OmException e) {
      throw new AuthenticationException("the S3 request's signature proves nobody: " + e.getMessage(), e);
    }
    return Optional.of(new AuthenticatedUser(proof.getAccessId(), Authentication.GATEWAY));
  }

  /**
   * The key of the proof's V4 scope, derived from the user's secret unless known from the last TTL. Only a recent
   * scope's key is derived, and so remembered: its day is not parsed again for every call, and stays recent enough
   * for the TTL.
   */
  private byte[] scopeKey(CheckS3SignatureRequest proof) throws OmException, AuthenticationException {
    Scope scope = new Scope(proof.getAccessId(), proof.getDate(), proof.getRegion(), proof.getService());
    byte[] key = scopes.get(scope);
    if (key == null) {
      requireRecent(scope.date());
      key = S3Signatures.v4SigningKey(secrets.secret(scope.accessId()), scope.date(), scope.region(),
          scope.service());
      scopes.remember(scope, key);
    }
    return key;
  }

  private void requireRecent(String scopeDay) throws AuthenticationException {
    Instant signed;
    try {
      signed = LocalDate.parse(scopeDay, SCOPE_DAY).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      throw new AuthenticationException("the S3 request's scope has no day (yyyyMMdd): " + scopeDay);
    }
    Instant now = clock.wallTime();
    if (signed.isBefore(now.minus(OLDEST)) || signed.isAfter(now.plus(NEWEST))) {
      throw new AuthenticationException("the S3 request was signed for " + scopeDay + ", too far from today");
    }
  }
}
