package org.tropos.om.namespace;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SealingKey;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyEncryption;
import org.tropos.proto.om.OmResult;

/**
 * The data keys of keys encrypted at rest (SSE-S3): each object's own random AES-256 key, kept in its row wrapped by
 * the OMs' master key, which is derived from the sealing key SCM hands the OMs ({@link SealingKey#derive}). So the
 * database, its checkpoints, its journal and the Raft log hold no data key in the clear, and the datanodes, which
 * never see a data key, hold only ciphertext. A cluster without security has no sealing key, and refuses to
 * encrypt rather than pretend to.
 *
 * <p>Thread-safe.
 */
public final class DataKeys {
  /** The encrypted stream format written (SegmentedGcm's). */
  static final int FORMAT = 1;
  private static final String PURPOSE = "tropos sse-s3 master key";
  private static final byte[] CONTEXT = "sse-s3 data key, format 1".getBytes(StandardCharsets.UTF_8);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final DataKeys NONE = new DataKeys(null);

  private final SealingKeySource source;
  private volatile MasterKey master;

  private record MasterKey(String sealingKeyId, SealingKey key) {
  }

  private DataKeys(SealingKeySource source) {
    this.source = source;
  }

  /** No master key: a cluster without security. */
  public static DataKeys none() {
    return NONE;
  }

  /** Data keys wrapped by the master key derived from the sealing key {@code source} gives. */
  public static DataKeys wrappedWith(SealingKeySource source) {
    return new DataKeys(source);
  }

  /** A new random data key. */
  static byte[] generate() {
    byte[] key = new byte[SegmentedGcm.KEY_BYTES];
    RANDOM.nextBytes(key);
    return key;
  }

  /** {@code dataKey} wrapped for a key encrypted as {@code kind} (sizes are set when its data is committed). */
  KeyEncryption wrap(EncryptionKind kind, byte[] dataKey) throws OmException {
    if (dataKey.length != SegmentedGcm.KEY_BYTES) {
      throw new OmException(OmResult.INVALID_REQUEST, "a data key is " + SegmentedGcm.KEY_BYTES + " bytes, not "
          + dataKey.length);
    }
    SealingKey key = master();
    return KeyEncryption.newBuilder().setKind(kind).setFormat(FORMAT).setMasterKeyId(key.id())
        .setWrappedKey(ByteString.copyFrom(key.seal(dataKey, CONTEXT))).build();
  }

  /** The data key {@code encryption} holds wrapped. */
  public byte[] unwrap(KeyEncryption encryption) throws OmException {
    SealingKey key = master();
    if (!key.id().equals(encryption.getMasterKeyId())) {
      throw new OmException(OmResult.INTERNAL_ERROR, "the data key is wrapped by master key "
          + encryption.getMasterKeyId() + ", not this cluster's " + key.id());
    }
    try {
      return key.open(encryption.getWrappedKey().toByteArray(), CONTEXT);
    } catch (GeneralSecurityException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "the wrapped data key does not open: it was changed");
    }
  }

  /**
   * Has the master key at hand before a transaction may need it: the first fetch is a call to SCM, better not made
   * inside an optimistic transaction (nor again on each of its retries). A failure here fails only the transactions
   * that need the key.
   */
  void prepare() {
    if (source != null && master == null) {
      try {
        master();
      } catch (OmException e) {
        // Told to the writer that needs the key, if any.
      }
    }
  }

  /** Fails unless keys can be encrypted: the cluster is secure and its master key at hand. */
  void requireMasterKey() throws OmException {
    master();
  }

  private SealingKey master() throws OmException {
    if (source == null) {
      throw new OmException(OmResult.INVALID_REQUEST, "encryption at rest needs a secure cluster"
          + " (ozone.security.enabled): without it the OMs have no master key");
    }
    SealingKey sealing;
    try {
      sealing = source.key();
    } catch (IOException e) {
      throw new OmException(OmResult.OM_NOT_READY, "encrypted keys cannot be read or written yet: " + e.getMessage());
    }
    MasterKey known = master;
    if (known == null || !known.sealingKeyId().equals(sealing.id())) {
      known = new MasterKey(sealing.id(), sealing.derive(PURPOSE));
      master = known;
    }
    return known.key();
  }
}
