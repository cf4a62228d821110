package org.tropos.client.internal;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import org.tropos.client.KeyInputStream;
import org.tropos.client.KeyOutputStream;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OpenKeyRequest;

/**
 * The client's side of encryption at rest: a key is encrypted by its writer and decrypted by its reader, under the
 * data key the OM hands them (or, for a key written before it is opened, one its writer makes and the OM wraps),
 * so that no datanode and no disk ever holds its plaintext.
 */
public final class KeyEncryption {
  private static final SecureRandom RANDOM = new SecureRandom();

  private KeyEncryption() {
  }

  /** Whether {@code request} asks for its key to be encrypted. */
  public static boolean asked(OpenKeyRequest request) {
    return request.getEncryption().getKind() != EncryptionKind.ENCRYPTION_NONE;
  }

  public static byte[] newDataKey() {
    byte[] key = new byte[SegmentedGcm.KEY_BYTES];
    RANDOM.nextBytes(key);
    return key;
  }

  /**
   * {@code request} for a key of exactly its size encrypted under {@code dataKey}, which its writer made: the OM is
   * to wrap that key, and the size is the stored stream's.
   */
  public static OpenKeyRequest withDataKey(OpenKeyRequest request, byte[] dataKey) {
    OpenKeyRequest.Builder stored = request.toBuilder().setSize(SegmentedGcm.storedLength(request.getSize()));
    stored.getEncryptionBuilder().setDataKey(ByteString.copyFrom(dataKey));
    return stored.build();
  }

  /**
   * {@code request} with its expected size (a plaintext's) as the stored stream's, so the first block holds it
   * all; unchanged when it asks for no encryption, names no size, or carries its writer's data key (sized already).
   */
  public static OpenKeyRequest openedSize(OpenKeyRequest request) {
    if (!asked(request) || request.getSize() <= 0 || !request.getEncryption().getDataKey().isEmpty()) {
      return request;
    }
    return request.toBuilder().setSize(SegmentedGcm.storedLength(request.getSize())).build();
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

  /** Reads the plaintext of the encrypted key {@code lookup} found, with the data key it answered. */
  public static KeyInputStream decrypting(LookupKeyResponse lookup, BlockStreamReader reader) {
    KeyInfo key = lookup.getKey();
    long stored = key.getBlocksList().stream().mapToLong(KeyBlock::getLength).sum();
    LookupKeyResponse storedView = lookup.toBuilder().setKey(key.toBuilder().setSize(stored)).build();
    return new EncryptedKeyInputStream(new BlockKeyInputStream(storedView, reader), key,
        lookup.getDataKey().toByteArray());
  }
}
