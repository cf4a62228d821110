package org.tropos.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;

/**
 * The client's side of encryption at rest: a key is encrypted by its writer and decrypted by its reader, under the
 * data key the OM hands them (or, for a key written before it is opened, one its writer makes and the OM wraps),
 * or under the customer's own key (SSE-C), which the caller gives in {@code EncryptionRequest.data_key} and which
 * never leaves this client: the OM gets a check of it instead ({@link #customerKeyCheck}). So no datanode and no
 * disk ever holds a key's plaintext.
 */
final class KeyEncryption {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] CHECKED_TEXT = "tropos sse-c key check, format 1".getBytes(StandardCharsets.US_ASCII);

  private KeyEncryption() {
  }

  /**
   * A request as the OM is to get it, and the key this client encrypts with (null: none, or the one the OM answers
   * at open).
   */
  public record Prepared(OpenKeyRequest request, EncryptionKind kind, byte[] key) {
  }

  /**
   * {@code request} made ready for the OM: the size it names (a plaintext's) as the stored stream's; an SSE-C
   * customer's key kept here and replaced by its check; with {@code exactSize} (a key written before it is opened)
   * a data key made here, but for SSE-KMS, whose data keys only the KMS makes. Unchanged when it asks for no
   * encryption or was prepared already.
   */
  public static Prepared prepare(OpenKeyRequest request, boolean exactSize) {
    EncryptionRequest asked = request.getEncryption();
    boolean prepared = asked.getKind() == EncryptionKind.SSE_C ? !asked.getCustomerKeyCheck().isEmpty()
        : !asked.getDataKey().isEmpty();
    if (!asked(request) || prepared) {
      return new Prepared(request, asked.getKind(), null);
    }
    OpenKeyRequest.Builder ready = request.toBuilder();
    if (exactSize || request.getSize() > 0) {
      ready.setSize(SegmentedGcm.storedLength(request.getSize()));
    }
    byte[] key;
    if (asked.getKind() == EncryptionKind.SSE_C) {
      key = asked.getDataKey().toByteArray();
      ready.getEncryptionBuilder().clearDataKey().setCustomerKeyCheck(customerKeyCheck(key));
    } else if (exactSize && asked.getKind() != EncryptionKind.SSE_KMS) {
      key = newDataKey();
      ready.getEncryptionBuilder().setDataKey(ByteString.copyFrom(key));
    } else {
      key = null;
    }
    return new Prepared(ready.build(), asked.getKind(), key);
  }

  /** {@code request} with an SSE-C customer's key replaced by its check, for the OM. */
  public static InitiateMultipartUploadRequest prepare(InitiateMultipartUploadRequest request) {
    EncryptionRequest asked = request.getEncryption();
    if (asked.getKind() != EncryptionKind.SSE_C || asked.getDataKey().isEmpty()) {
      return request;
    }
    InitiateMultipartUploadRequest.Builder ready = request.toBuilder();
    ready.getEncryptionBuilder().clearDataKey().setCustomerKeyCheck(customerKeyCheck(asked.getDataKey()
        .toByteArray()));
    return ready.build();
  }

  /**
   * {@code request} to commit again a key written encrypted as {@code kind} under {@code key}: the same key, as the
   * OM is to get it.
   */
  static OpenKeyRequest writtenUnder(OpenKeyRequest request, EncryptionKind kind, byte[] key) {
    OpenKeyRequest.Builder again = request.toBuilder();
    again.getEncryptionBuilder().clear().setKind(kind);
    if (kind == EncryptionKind.SSE_C) {
      again.getEncryptionBuilder().setCustomerKeyCheck(customerKeyCheck(key));
    } else {
      again.getEncryptionBuilder().setDataKey(ByteString.copyFrom(key));
    }
    return again.build();
  }

  /** What the OM keeps to tell a customer's key: an HMAC under it, which shows nothing of the key. */
  public static ByteString customerKeyCheck(byte[] customerKey) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(customerKey, "HmacSHA256"));
      return ByteString.copyFrom(mac.doFinal(CHECKED_TEXT));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HMAC-SHA256", e);
    }
  }

  /** Whether {@code customerKey} is the one {@code key} was encrypted with (SSE-C). */
  public static boolean isCustomerKeyOf(KeyInfo key, byte[] customerKey) {
    return key.getEncryption().getKind() == EncryptionKind.SSE_C && MessageDigest.isEqual(
        key.getEncryption().getCustomerKeyCheck().toByteArray(), customerKeyCheck(customerKey).toByteArray());
  }

  /** Whether {@code request} asks for its key to be encrypted. */
  private static boolean asked(OpenKeyRequest request) {
    return request.getEncryption().getKind() != EncryptionKind.ENCRYPTION_NONE;
  }

  private static byte[] newDataKey() {
    byte[] key = new byte[SegmentedGcm.KEY_BYTES];
    RANDOM.nextBytes(key);
    return key;
  }

  /** A key written to {@code stored} encrypted as {@code kind} under {@code dataKey}. */
  public static KeyOutputStream encrypting(KeyOutputStream stored, EncryptionKind kind, byte[] dataKey) {
    try {
      return new EncryptedKeyOutputStream(stored, kind, dataKey);
    } catch (IOException e) {
      stored.abort();
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads the plaintext of the encrypted key {@code lookup} found, with {@code key}: the data key it answered, or
   * the customer's (SSE-C).
   */
  public static KeyInputStream decrypting(LookupKeyResponse lookup, byte[] key, BlockStreamReader reader) {
    long stored = lookup.getKey().getBlocksList().stream().mapToLong(KeyBlock::getLength).sum();
    LookupKeyResponse storedView = lookup.toBuilder().setKey(lookup.getKey().toBuilder().setSize(stored)).build();
    return new EncryptedKeyInputStream(new BlockKeyInputStream(storedView, reader), lookup.getKey(), key,
        streams(lookup.getKey()));
  }

  /** The encrypted streams of {@code key}'s stored bytes: one per part of a multipart upload, else one. */
  private static List<EncryptedKeyInputStream.Stream> streams(KeyInfo key) {
    if (key.getPartsCount() == 0) {
      return List.of(new EncryptedKeyInputStream.Stream(0, key.getSize(), 0));
    }
    List<EncryptedKeyInputStream.Stream> streams = new ArrayList<>();
    long plain = 0;
    long stored = 0;
    for (PartInfo part : key.getPartsList()) {
      streams.add(new EncryptedKeyInputStream.Stream(plain, part.getSize(), stored));
      plain += part.getSize();
      stored += part.getStoredSize();
    }
    return streams;
  }
}
