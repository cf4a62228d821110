package org.tropos.om.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.Metadata;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.AuthenticatedUser;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.AuthenticationException;
import org.tropos.common.security.CredentialHeaders;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.SecretKeyRing;
import org.tropos.common.util.ManualClock;
import org.tropos.om.db.OmDb;
import org.tropos.om.occ.Committer;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.occ.OccMetrics;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.om.DelegationToken;
import org.tropos.proto.om.DelegationTokenIdentifier;
import org.tropos.proto.om.OmResult;

/** Delegation tokens on a real OM database: who gets, renews and cancels them, and what a token proves when. */
class DelegationTokensTest {
  private static final Duration RENEW = Duration.ofHours(1);
  private static final Duration MAX = Duration.ofHours(3);

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();
  private final SecretKey key = SecretKey.generate(clock.wallTime(), Duration.ofDays(9));
  private OmDb db;
  private Committer committer;
  private DelegationTokens tokens;

  @BeforeEach
  void open() throws IOException {
    db = OmDb.open(dir.resolve("om.db"));
    OccMetrics metrics = new OccMetrics();
    committer = new Committer("om-test", db, 16, metrics);
    committer.start();
    OccRunner runner = new OccRunner(db, new ObjectIds(db), committer, clock, 20, metrics);
    tokens = DelegationTokens.signedWith(ring(key), runner, RENEW, MAX, clock);
  }

  @AfterEach
  void close() throws IOException {
    committer.close();
    db.close();
  }

  @Test
  void aTokenProvesItsOwnerUntilItsExpiry() throws Exception {
    DelegationToken token = tokens.issue("alice", Authentication.KERBEROS, "yarn/rm@EXAMPLE.COM").getToken();
    assertEquals(new AuthenticatedUser("alice", Authentication.TOKEN), proves(token));
    assertEquals("yarn", DelegationTokenIdentifier.parseFrom(token.getIdentifier()).getRenewer());
    clock.advance(RENEW.minusSeconds(1));
    assertEquals("alice", proves(token).name());
    clock.advance(Duration.ofSeconds(1));
    assertTrue(assertThrows(AuthenticationException.class, () -> proves(token)).getMessage().contains("expired"));
    assertEquals(1, tokens.purgeExpired());
    assertTrue(assertThrows(AuthenticationException.class, () -> proves(token)).getMessage().contains("cancelled"));
  }

  @Test
  void onlyAUserProvenByKerberosOrACertificateGetsOrRenewsTokens() throws Exception {
    for (Authentication weak : List.of(Authentication.TOKEN, Authentication.SIMPLE, Authentication.GATEWAY)) {
      assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> tokens.issue("alice", weak,
          "yarn")).result());
    }
    assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> tokens.issue("",
        Authentication.CERTIFICATE, "yarn")).result(), "nobody");
    DelegationToken token = tokens.issue("alice", Authentication.CERTIFICATE, "yarn").getToken();
    assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> tokens.renew(token, "yarn",
        Authentication.TOKEN)).result());
  }

  @Test
  void onlyTheRenewerRenewsAndNeverPastTheMaximumDate() throws Exception {
    DelegationToken token = tokens.issue("alice", Authentication.KERBEROS, "yarn").getToken();
    long maxDate = DelegationTokenIdentifier.parseFrom(token.getIdentifier()).getMaxDateMs();
    assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> tokens.renew(token, "alice",
        Authentication.KERBEROS)).result(), "the owner is not the renewer");
    clock.advance(Duration.ofMinutes(50));
    assertEquals(clock.wallTime().plus(RENEW).toEpochMilli(), tokens.renew(token, "yarn", Authentication.KERBEROS));
    clock.advance(Duration.ofMinutes(50));
    assertEquals("alice", proves(token).name(), "renewed past its first expiry");
    tokens.renew(token, "yarn", Authentication.KERBEROS);
    clock.advance(Duration.ofMinutes(50));
    assertEquals(maxDate, tokens.renew(token, "yarn", Authentication.KERBEROS), "capped at the maximum date");
    clock.advance(Duration.ofMinutes(31));
    assertEquals(OmResult.INVALID_TOKEN, assertThrows(OmException.class, () -> tokens.renew(token, "yarn",
        Authentication.KERBEROS)).result());
    DelegationToken unrenewable = tokens.issue("alice", Authentication.KERBEROS, "").getToken();
    assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> tokens.renew(unrenewable, "",
        Authentication.KERBEROS)).result());
  }

  @Test
  void theOwnerOrTheRenewerCancelsAndNobodyElse() throws Exception {
    DelegationToken token = tokens.issue("alice", Authentication.KERBEROS, "yarn").getToken();
    assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> tokens.cancel(token, "bob"))
        .result());
    assertEquals("alice", proves(token).name(), "still valid after a refused cancel");
    tokens.cancel(token, "yarn");
    assertThrows(AuthenticationException.class, () -> proves(token));
    assertEquals(OmResult.INVALID_TOKEN, assertThrows(OmException.class, () -> tokens.cancel(token, "alice"))
        .result());
  }

  @Test
  void forgedTokensProveNobody() throws Exception {
    DelegationToken token = tokens.issue("alice", Authentication.KERBEROS, "yarn").getToken();
    DelegationTokenIdentifier said = DelegationTokenIdentifier.parseFrom(token.getIdentifier());
    DelegationToken otherOwner = token.toBuilder().setIdentifier(said.toBuilder().setOwner("root").build()
        .toByteString()).build();
    assertTrue(assertThrows(AuthenticationException.class, () -> proves(otherOwner)).getMessage()
        .contains("signature"));
    SecretKey forgersKey = SecretKey.generate(clock.wallTime(), Duration.ofDays(1));
    ByteString forged = said.toBuilder().setOwner("root").setKeyId(org.tropos.common.util.Uuids.toProto(
        forgersKey.id())).build().toByteString();
    DelegationToken selfSigned = DelegationToken.newBuilder().setIdentifier(forged).setPassword(ByteString.copyFrom(
        forgersKey.mac(forged))).build();
    assertTrue(assertThrows(AuthenticationException.class, () -> proves(selfSigned)).getMessage()
        .contains("key SCM did not make"));
    Metadata garbage = new Metadata();
    garbage.put(CredentialHeaders.TOKEN, new byte[] {1, 2, 3});
    assertThrows(AuthenticationException.class, () -> tokens.authenticate(garbage));
  }

  @Test
  void tokensOutliveARestart() throws Exception {
    DelegationToken token = tokens.issue("alice", Authentication.KERBEROS, "yarn").getToken();
    close();
    open();
    assertEquals("alice", proves(token).name());
  }

  /** Whom {@code token} proves, as the OM checks it: its signature on arrival, then whether it is live. */
  private AuthenticatedUser proves(DelegationToken token) throws AuthenticationException {
    Metadata headers = new Metadata();
    headers.put(CredentialHeaders.TOKEN, token.toByteArray());
    AuthenticatedUser user = tokens.authenticate(headers).orElseThrow();
    try {
      tokens.requireLive(token.toByteArray());
    } catch (OmException e) {
      throw new AuthenticationException(e.getMessage(), e);
    }
    return user;
  }

  /** SCM's keys as an OM holds them: here the one key. */
  private static SecretKeyRing ring(SecretKey key) {
    return new SecretKeyRing() {
      @Override
      public SecretKey current() {
        return key;
      }

      @Override
      public Optional<SecretKey> find(UUID id) {
        return id.equals(key.id()) ? Optional.of(key) : Optional.empty();
      }
    };
  }
}
