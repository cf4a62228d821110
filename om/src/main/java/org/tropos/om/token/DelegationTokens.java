package org.tropos.om.token;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Metadata;
import java.io.IOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.AuthenticatedUser;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.AuthenticationException;
import org.tropos.common.security.CredentialHeaders;
import org.tropos.common.security.KerberosPrincipals;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.SecretKeyRing;
import org.tropos.common.security.UserAuthenticator;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Uuids;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.om.DelegationToken;
import org.tropos.proto.om.DelegationTokenIdentifier;
import org.tropos.proto.om.GetDelegationTokenResponse;
import org.tropos.proto.om.OmResult;

/**
 * The OM's delegation tokens (Hadoop's model, signed as Ozone signs them, with SCM's rotating secret keys): a user
 * proven by Kerberos or a certificate gets one, its tasks send it with each call and act as that user
 * ({@link #authenticate}, {@link #requireLive}) until it expires or is cancelled. Only the renewer it names
 * extends it, each time by the renew interval and never past its maximum date; the owner or the renewer cancels
 * it. A token verifies only with a key SCM made and the OM's row of it ({@link DelegationTokenStore}), which OM HA
 * replicates.
 */
public final class DelegationTokens implements UserAuthenticator {
  private final Optional<SecretKeyRing> keys;
  private final DelegationTokenStore store;
  private final Duration renewInterval;
  private final Duration maxLifetime;
  private final Clock clock;

  private DelegationTokens(Optional<SecretKeyRing> keys, DelegationTokenStore store, Duration renewInterval,
      Duration maxLifetime, Clock clock) {
    this.keys = keys;
    this.store = store;
    this.renewInterval = renewInterval;
    this.maxLifetime = maxLifetime;
    this.clock = clock;
  }

  /** No tokens: a cluster that is not secure. */
  public static DelegationTokens off() {
    return new DelegationTokens(Optional.empty(), null, Duration.ZERO, Duration.ZERO, null);
  }

  /** Tokens signed with {@code keys}, kept through {@code runner}. */
  public static DelegationTokens signedWith(SecretKeyRing keys, OccRunner runner, Duration renewInterval,
      Duration maxLifetime, Clock clock) {
    return new DelegationTokens(Optional.of(keys), new DelegationTokenStore(runner), renewInterval, maxLifetime,
        clock);
  }

  /** A token of {@code owner}, proven as {@code how}, that {@code renewer} (a principal or user) may renew. */
  public GetDelegationTokenResponse issue(String owner, Authentication how, String renewer) throws OmException {
    requireStrongProof(owner, how, "got");
    SecretKey key = signingKey();
    Instant now = clock.wallTime();
    Instant maxDate = earlier(now.plus(maxLifetime), key.expiry());
    UUID id = UUID.randomUUID();
    ByteString identifier = DelegationTokenIdentifier.newBuilder().setId(Uuids.toProto(id)).setOwner(owner)
        .setRenewer(KerberosPrincipals.firstComponent(renewer)).setIssueMs(now.toEpochMilli())
        .setMaxDateMs(maxDate.toEpochMilli()).setKeyId(Uuids.toProto(key.id())).build().toByteString();
    long expiry = earlier(now.plus(renewInterval), maxDate).toEpochMilli();
    store.add(id, identifier, expiry);
    return GetDelegationTokenResponse.newBuilder().setToken(DelegationToken.newBuilder().setIdentifier(identifier)
        .setPassword(ByteString.copyFrom(key.mac(identifier)))).setExpiryMs(expiry).build();
  }

  /** Extends {@code token} by the renew interval, up to its maximum date; only its renewer may. Returns the expiry. */
  public long renew(DelegationToken token, String caller, Authentication how) throws OmException {
    requireStrongProof(caller, how, "renewed");
    DelegationTokenIdentifier said = signed(token);
    if (said.getRenewer().isEmpty() || !said.getRenewer().equals(caller)) {
      throw new OmException(OmResult.PERMISSION_DENIED, "user '" + caller + "' may not renew a delegation token"
          + (said.getRenewer().isEmpty() ? " that names no renewer" : " whose renewer is '" + said.getRenewer()
          + "'"));
    }
    Instant now = clock.wallTime();
    Instant maxDate = Instant.ofEpochMilli(said.getMaxDateMs());
    if (!maxDate.isAfter(now)) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token reached its maximum date " + maxDate);
    }
    long expiry = earlier(now.plus(renewInterval), maxDate).toEpochMilli();
    store.renew(Uuids.fromProto(said.getId()), token.getIdentifier(), expiry);
    return expiry;
  }

  /** Ends {@code token} now; its owner or renewer may. */
  public void cancel(DelegationToken token, String caller) throws OmException {
    DelegationTokenIdentifier said = signed(token);
    if (caller.isEmpty() || !caller.equals(said.getOwner()) && !caller.equals(said.getRenewer())) {
      throw new OmException(OmResult.PERMISSION_DENIED, "user '" + caller + "' may not cancel a delegation token"
          + " of '" + said.getOwner() + "': only its owner and its renewer may");
    }
    store.remove(Uuids.fromProto(said.getId()), token.getIdentifier());
  }

  /** Forgets the tokens that have expired; returns how many. */
  public long purgeExpired() throws OmException {
    return keys.isEmpty() ? 0 : store.purgeExpired(clock.wallTime().toEpochMilli());
  }

  /**
   * The owner of the token a call carries, when its signature verifies. Whether it is still live (not cancelled,
   * not expired) is for {@link #requireLive} to say where the OM's state is current: on arrival a follower may not
   * have applied the token's row yet, and must send the caller on to the leader, not refuse it.
   */
  @Override
  public Optional<AuthenticatedUser> authenticate(Metadata headers) throws AuthenticationException {
    byte[] sent = headers.get(CredentialHeaders.TOKEN);
    if (sent == null || keys.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new AuthenticatedUser(signed(parse(sent)).getOwner(), Authentication.TOKEN));
    } catch (OmException e) {
      throw new AuthenticationException(e.getMessage(), e);
    }
  }

  /**
   * Fails with INVALID_TOKEN unless the token {@code sent}, whose signature {@link #authenticate} checked, was
   * issued here and is neither cancelled nor expired: its row holds these very identifier bytes.
   */
  public void requireLive(byte[] sent) throws OmException {
    DelegationToken token = parse(sent);
    DelegationTokenStore.live(store.find(Uuids.fromProto(identifier(token).getId())), token.getIdentifier(),
        clock.wallTime().toEpochMilli());
  }

  private static DelegationToken parse(byte[] sent) throws OmException {
    try {
      return DelegationToken.parseFrom(sent);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token is unreadable");
    }
  }

  private static DelegationTokenIdentifier identifier(DelegationToken token) throws OmException {
    try {
      return DelegationTokenIdentifier.parseFrom(token.getIdentifier());
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token is unreadable");
    }
  }

  /** What {@code token} says, when its signature verifies under a key SCM made that has not expired. */
  private DelegationTokenIdentifier signed(DelegationToken token) throws OmException {
    SecretKeyRing ring = ring();
    DelegationTokenIdentifier said = identifier(token);
    Optional<SecretKey> key;
    try {
      key = ring.find(Uuids.fromProto(said.getKeyId()));
    } catch (IOException e) {
      throw new OmException(OmResult.SCM_UNAVAILABLE, "SCM's secret keys cannot be fetched: " + e.getMessage());
    }
    if (key.isEmpty()) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token is signed with a key SCM did not make,"
          + " or one expired");
    }
    if (!MessageDigest.isEqual(key.get().mac(token.getIdentifier()), token.getPassword().toByteArray())) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token's signature does not match it");
    }
    return said;
  }

  private SecretKeyRing ring() throws OmException {
    return keys.orElseThrow(() -> new OmException(OmResult.INVALID_REQUEST, "delegation tokens need a secure"
        + " cluster (ozone.security.enabled)"));
  }

  private SecretKey signingKey() throws OmException {
    try {
      return ring().current();
    } catch (IOException e) {
      throw new OmException(OmResult.SCM_UNAVAILABLE, "SCM's secret keys cannot be fetched: " + e.getMessage());
    }
  }

  /**
   * Hadoop's rule: tokens are got and renewed only by a user proven by Kerberos (here also by its own certificate),
   * never with a token, nor by the S3 gateway for a user it names.
   */
  private static void requireStrongProof(String caller, Authentication how, String done) throws OmException {
    if (caller.isEmpty() || how != Authentication.KERBEROS && how != Authentication.CERTIFICATE) {
      throw new OmException(OmResult.PERMISSION_DENIED, "a delegation token can be " + done + " only by a user"
          + " proven by Kerberos or a certificate, not by a token");
    }
  }

  private static Instant earlier(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
