package org.tropos.common.security;

import com.google.protobuf.ByteString;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.tropos.common.util.Uuids;

/** A symmetric key SCM makes to sign block tokens (HMAC-SHA256), known to the OMs and datanodes. */
public record SecretKey(UUID id, Instant created, Instant expiry, ByteString key) {
  private static final int KEY_BYTES = 32;

  /** A new random key, made at {@code now}, valid for {@code lifetime}. */
  public static SecretKey generate(Instant now, Duration lifetime) {
    byte[] bytes = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(bytes);
    return new SecretKey(UUID.randomUUID(), now, now.plus(lifetime), ByteString.copyFrom(bytes));
  }

  public static SecretKey of(org.tropos.proto.scm.SecretKey proto) {
    return new SecretKey(Uuids.fromProto(proto.getId()), Instant.ofEpochMilli(proto.getCreatedMs()),
        Instant.ofEpochMilli(proto.getExpiryMs()), proto.getKey());
  }

  public org.tropos.proto.scm.SecretKey toProto() {
    return org.tropos.proto.scm.SecretKey.newBuilder().setId(Uuids.toProto(id)).setCreatedMs(created.toEpochMilli())
        .setExpiryMs(expiry.toEpochMilli()).setKey(key).build();
  }

  public boolean expiredAt(Instant now) {
    return !expiry.isAfter(now);
  }

  /** The HMAC of {@code bytes} under this key. */
  public byte[] mac(ByteString bytes) {
    return Hmacs.sha256(key.toByteArray(), bytes.asReadOnlyByteBuffer());
  }

  @Override
  public String toString() {
    // Never the key's bytes, wherever a key is logged.
    return "SecretKey[" + id + ", created " + created + ", expires " + expiry + "]";
  }
}
