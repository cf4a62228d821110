package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.KeyEncryption;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * How a key is encrypted at rest: as its writer asks, else as its bucket's default encryption says (S3's
 * PutBucketEncryption), and what its committed row then records. The writer encrypts (the OM never sees a key's
 * data); the OM makes and wraps the data key, or wraps the one a writer made when it wrote before opening the key.
 */
public final class KeyEncryptions {
  private static final int CUSTOMER_KEY_CHECK_BYTES = 32;

  private KeyEncryptions() {
  }

  /**
   * The encryption of a key opened by {@code asked} in {@code bucket}, its data key wrapped; none for a key left in
   * the clear. {@code openedWithCommit}: the key's bytes are written already, so they must have been encrypted as
   * the bucket now requires.
   */
  static Optional<KeyEncryption> opened(DataKeys keys, BucketRow bucket, EncryptionRequest asked,
      boolean openedWithCommit) throws OmException {
    EncryptionKind kind = asked.getKind() != EncryptionKind.ENCRYPTION_NONE ? asked.getKind()
        : bucket.hasEncryption() ? bucket.getEncryption().getKind() : EncryptionKind.ENCRYPTION_NONE;
    if (kind == EncryptionKind.UNRECOGNIZED) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown encryption " + asked.getKindValue());
    }
    if (kind == EncryptionKind.SSE_C) {
      return Optional.of(withCustomerKey(asked));
    }
    if (kind == EncryptionKind.SSE_KMS) {
      return Optional.of(underKms(bucket, asked, openedWithCommit));
    }
    if (!asked.getCustomerKeyCheck().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a customer's key check came with a key not encrypted by it");
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

  /** SSE-C: the check of the customer's key, which alone is kept (the OM is never sent the key). */
  private static KeyEncryption withCustomerKey(EncryptionRequest asked) throws OmException {
    if (!asked.getDataKey().isEmpty() || asked.getCustomerKeyCheck().size() != CUSTOMER_KEY_CHECK_BYTES) {
      throw new OmException(OmResult.INVALID_REQUEST, "SSE-C gives the OM its key's check (HMAC-SHA256), never"
          + " a key");
    }
    return KeyEncryption.newBuilder().setKind(EncryptionKind.SSE_C).setFormat(DataKeys.FORMAT)
        .setCustomerKeyCheck(asked.getCustomerKeyCheck()).build();
  }

  /**
   * SSE-KMS: the data key the KMS made for the key (the OM's service asks the KMS for one, for the key id asked or
   * else the bucket's default's, before the transaction: {@link KmsKeyRequired} tells it which).
   */
  private static KeyEncryption underKms(BucketRow bucket, EncryptionRequest asked, boolean openedWithCommit)
      throws OmException {
    if (openedWithCommit && asked.getKind() == EncryptionKind.ENCRYPTION_NONE) {
      throw new OmException(OmResult.BUCKET_CHANGED, "bucket " + FsoTree.name(bucket) + " encrypts its keys under"
          + " the KMS (its default encryption), and this key was written in the clear: write it again, encrypted");
    }
    if (openedWithCommit || !asked.getDataKey().isEmpty() || !asked.getCustomerKeyCheck().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "an SSE-KMS key is opened before it is written, under the data"
          + " key the KMS makes");
    }
    String keyId = !asked.getKmsKeyId().isEmpty() ? asked.getKmsKeyId()
        : bucket.hasEncryption() ? bucket.getEncryption().getKmsKeyId() : "";
    if (keyId.isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "SSE-KMS names the KMS key to encrypt under (its key id), and"
          + " bucket " + FsoTree.name(bucket) + " has no default one");
    }
    if (!asked.hasKmsKey() || !asked.getKmsKey().getKeyName().equals(keyId)) {
      throw new KmsKeyRequired(keyId);
    }
    return KeyEncryption.newBuilder().setKind(EncryptionKind.SSE_KMS).setFormat(DataKeys.FORMAT)
        .setKms(asked.getKmsKey()).build();
  }

  /** Whether {@code encryption} keeps a data key for the OM to answer (SSE-C's key is the customer's). */
  public static boolean keepsDataKey(KeyEncryption encryption) {
    return !encryption.getWrappedKey().isEmpty() || encryption.hasKms();
  }

  /**
   * The encryption the committed row of {@code open}, {@code stored} bytes, records: the open key's, with the
   * plaintext's size (a key joined from the parts of an upload: theirs, each part a stream of its own).
   */
  static KeyEncryption committed(OpenKeyRow open, long stored) throws OmException {
    long plaintext = open.getJoinedPartsCount() > 0
        ? open.getJoinedPartsList().stream().mapToLong(PartInfo::getSize).sum() : plaintextSize(stored);
    return open.getEncryption().toBuilder().setPlaintextSize(plaintext).build();
  }

  /** The plaintext size of an encrypted stream of {@code stored} bytes; refused if no stream has that length. */
  static long plaintextSize(long stored) throws OmException {
    try {
      return SegmentedGcm.plaintextLength(stored);
    } catch (IllegalArgumentException e) {
      throw new OmException(OmResult.INVALID_REQUEST, "the key is to be encrypted, but " + e.getMessage());
    }
  }

  /** The size of the data {@code row} holds, as its readers see it: the plaintext's for an encrypted key. */
  static long plaintextSize(FileRow row) {
    return row.hasEncryption() ? row.getEncryption().getPlaintextSize() : row.getSize();
  }
}
