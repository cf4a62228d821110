package org.tropos.om.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Metadata;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.common.security.AuthenticatedUser;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.AuthenticationException;
import org.tropos.common.security.S3Signatures;
import org.tropos.common.util.ManualClock;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.OmResult;

/** The OM's proof of the S3 user of a gateway's call, from the signature of the request the gateway serves. */
class S3RequestAuthenticatorTest {
  private static final String TODAY = "20260101";
  private final ManualClock clock = new ManualClock();
  private final Map<String, String> secrets = new HashMap<>(Map.of("carol", "carols-secret-0123456789"));
  private final S3RequestAuthenticator authenticator = new S3RequestAuthenticator(id -> {
    String secret = secrets.get(id);
    if (secret == null) {
      throw new OmException(OmResult.S3_SECRET_NOT_FOUND, id);
    }
    return secret;
  }, clock);

  @Test
  void aCallCarryingNoProofIsNotTheseToProve() throws Exception {
    assertTrue(authenticator.authenticate(new Metadata()).isEmpty());
  }

  @Test
  void aRequestSignedWithTheUsersSecretProvesTheUser() throws Exception {
    assertEquals(new AuthenticatedUser("carol", Authentication.GATEWAY), authenticator.authenticate(headers(
        signed("carol", TODAY, "GET /bucket/key", secrets.get("carol")))).orElseThrow());
    CheckS3SignatureRequest v2 = CheckS3SignatureRequest.newBuilder().setAccessId("carol").addStringToSign("x")
        .addStringToSign("PUT\n\n\n\n/bucket/").setSignature(S3Signatures.v2Signature(secrets.get("carol"),
        "PUT\n\n\n\n/bucket/")).build();
    assertEquals("carol", authenticator.authenticate(headers(v2)).orElseThrow().name());
  }

  @Test
  void aForgedProofAnUnknownUserOrUnreadableBytesProveNobody() {
    CheckS3SignatureRequest guessed = signed("carol", TODAY, "DELETE /bucket/key", "a guess");
    for (Metadata forged : new Metadata[] {headers(guessed),
        headers(guessed.toBuilder().setStringToSign(0, "GET /bucket/key").build()),
        headers(signed("mallory", TODAY, "GET /bucket/key", "anything")),
        headers(signed("", TODAY, "GET /bucket/key", secrets.get("carol"))), raw("not a proof")}) {
      assertThrows(AuthenticationException.class, () -> authenticator.authenticate(forged));
    }
  }

  @Test
  void aProofSignedForADayLongPastOrToComeProvesNobody() {
    for (String day : new String[] {"20251223", "20260103", "2026-01-01"}) {
      Metadata old = headers(signed("carol", day, "GET /bucket/key", secrets.get("carol")));
      assertThrows(AuthenticationException.class, () -> authenticator.authenticate(old), day);
    }
  }

  @Test
  void aRevokedSecretStopsProvingWithinTheScopeKeysLife() throws Exception {
    authenticator.authenticate(headers(signed("carol", TODAY, "GET /bucket/key", secrets.get("carol"))));
    secrets.remove("carol");
    Metadata later = headers(signed("carol", TODAY, "PUT /bucket/key", "carols-secret-0123456789"));
    assertEquals("carol", authenticator.authenticate(later).orElseThrow().name(), "the scope's key is remembered");
    assertThrows(AuthenticationException.class, () -> authenticator.authenticate(headers(signed("carol", TODAY,
        "GET /bucket/key", "a guess"))), "remembered, the key still checks each signature");
    clock.advance(Duration.ofMillis(S3RequestAuthenticator.TTL_MILLIS));
    assertThrows(AuthenticationException.class, () -> authenticator.authenticate(later));
  }

  private static CheckS3SignatureRequest signed(String accessId, String day, String stringToSign, String secret) {
    byte[] key = S3Signatures.v4SigningKey(secret, day, "us-east-1", "s3");
    return CheckS3SignatureRequest.newBuilder().setAccessId(accessId).setDate(day).setRegion("us-east-1")
        .setService("s3").addStringToSign(stringToSign).setSignature(S3Signatures.v4Signature(key, stringToSign))
        .build();
  }

  private static Metadata headers(CheckS3SignatureRequest proof) {
    Metadata headers = new Metadata();
    headers.put(S3RequestProofs.HEADER, proof.toByteArray());
    return headers;
  }

  private static Metadata raw(String bytes) {
    Metadata headers = new Metadata();
    headers.put(S3RequestProofs.HEADER, bytes.getBytes(StandardCharsets.UTF_8));
    return headers;
  }
}
