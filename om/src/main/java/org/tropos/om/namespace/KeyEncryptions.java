package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.KeyEncryption;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;

/**
 * How a key is encrypted at rest: as its writer asks, else as its bucket's default encryption says (S3's
 * PutBucketEncryption), and what its committed row then records. The writer encrypts (the OM never sees a key's
 * data); the OM makes and wraps the data key, or wraps the one a writer made when it wrote before opening the key.
 */
final class KeyEncryptions {
  private KeyEncryptions() {
  }

  /**
   * The encryption of a key opened by {@code asked} in {@code bucket}, its data key wrapped; none for a key left in
   * the clear. {@code openedWithCommit}: the key's bytes are written already, so they must have been encrypted as
   * the bucket now requires.
   */
  static Optional<KeyEncryption> opened(DataKeys keys, BucketRow bucket, OpenKeyRequest request,
      boolean openedWithCommit) throws OmException {
    EncryptionRequest asked = request.getEncryption();
    if (!request.getUploadId().isEmpty()) {
      if (asked.getKind() != EncryptionKind.ENCRYPTION_NONE || !asked.getDataKey().isEmpty()) {
        throw new OmException(OmResult.INVALID_REQUEST, "the parts of a multipart upload cannot be encrypted yet");
      }
      return Optional.empty();
    }
    EncryptionKind kind = asked.getKind() != EncryptionKind.ENCRYPTION_NONE ? asked.getKind()
        : bucket.hasEncryption() ? bucket.getEncryption().getKind() : EncryptionKind.ENCRYPTION_NONE;
    if (kind == EncryptionKind.UNRECOGNIZED) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown encryption " + asked.getKindValue());
    }
    if (kind == EncryptionKind.ENCRYPTION_NONE) {
      if (!asked.getDataKey().isEmpty()) {
        throw new OmException(OmResult.INVALID_REQUEST, "a data key came with a key that is not encrypted");
      }
      return Optional.empty();
    }
    if (asked.getDataKey().isEmpty() && openedWithCommit) {
      throw new OmException(OmResult.BUCKET_CHANGED, "bucket " + FsoTree.name(bucket) + " encrypts its keys (its"
          + " default encryption), and this key was written in the clear: write it again, encrypted");
    }
    return Optional.of(keys.wrap(kind, asked.getDataKey().isEmpty() ? DataKeys.generate()
        : asked.getDataKey().toByteArray()));
  }

  /** The encryption a committed row of {@code stored} bytes records: the open key's, with the plaintext's size. */
  static KeyEncryption committed(KeyEncryption opened, long stored) throws OmException {
    try {
      return opened.toBuilder().setPlaintextSize(SegmentedGcm.plaintextLength(stored)).build();
    } catch (IllegalArgumentException e) {
      throw new OmException(OmResult.INVALID_REQUEST, "the key is to be encrypted, but " + e.getMessage());
    }
  }

  /** The size of the data {@code row} holds, as its readers see it: the plaintext's for an encrypted key. */
  static long plaintextSize(FileRow row) {
    return row.hasEncryption() ? row.getEncryption().getPlaintextSize() : row.getSize();
  }
}
