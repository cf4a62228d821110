package org.tropos.om.rpc;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.kms.HadoopKms;
import org.tropos.om.namespace.DataKeys;
import org.tropos.om.namespace.KmsKeyRequired;
import org.tropos.proto.om.BucketEncryption;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.KeyEncryption;
import org.tropos.proto.om.OmResult;

/**
 * The data keys the OM's service hands writers and readers: SSE-S3's, unwrapped with the master key, and SSE-KMS's,
 * which the KMS makes (before the transaction that opens a key, which must not wait on the network) and decrypts
 * for each writer and reader the ACLs let read the data. A caller's own idea of a KMS-made key is never taken.
 */
final class DataKeyBroker {
  private final Optional<HadoopKms> kms;
  private final DataKeys dataKeys;

  DataKeyBroker(Optional<HadoopKms> kms, DataKeys dataKeys) {
    this.kms = kms;
    this.dataKeys = dataKeys;
  }

  /** An operation on the namespace that opens a key (or an upload) encrypted as it is given. */
  @FunctionalInterface
  interface Opening<T> {
    T open(EncryptionRequest encryption) throws OmException;
  }

  /**
   * Runs {@code opening} with {@code asked} as the namespace is to get it: without a KMS-made key the caller sent,
   * with one the KMS makes when it asks SSE-KMS under a key it names; and once more, with a key the KMS makes,
   * when the namespace finds it needs one (a bucket's default SSE-KMS).
   */
  <T> T open(EncryptionRequest asked, Opening<T> opening) throws OmException {
    EncryptionRequest encryption = asCallerMay(asked);
    if (asked.getKind() == EncryptionKind.SSE_KMS) {
      HadoopKms known = kms();
      if (!asked.getKmsKeyId().isEmpty()) {
        encryption = encryption.toBuilder().setKmsKey(known.generate(asked.getKmsKeyId())).build();
      }
    }
    try {
      return opening.open(encryption);
    } catch (KmsKeyRequired needed) {
      return opening.open(encryption.toBuilder().setKmsKey(kms().generate(needed.keyId())).build());
    }
  }

  /** {@code asked} without a KMS-made key the caller sent (a key written before it is opened has none). */
  static EncryptionRequest asCallerMay(EncryptionRequest asked) {
    return asked.hasKmsKey() ? asked.toBuilder().clearKmsKey().build() : asked;
  }

  /** The data key {@code encryption} keeps (KeyEncryptions.keepsDataKey), in the clear. */
  byte[] dataKey(KeyEncryption encryption) throws OmException {
    return encryption.hasKms() ? kms().decrypt(encryption.getKms()) : dataKeys.unwrap(encryption);
  }

  /** Fails unless a bucket's default encryption can be served: for SSE-KMS, a KMS that has its key. */
  void requireFor(BucketEncryption encryption) throws OmException {
    if (encryption.getKind() == EncryptionKind.SSE_KMS) {
      kms().requireKey(encryption.getKmsKeyId());
    }
  }

  private HadoopKms kms() throws OmException {
    return kms.orElseThrow(() -> new OmException(OmResult.NOT_SUPPORTED, "SSE-KMS needs a KMS, and this OM knows"
        + " none (hadoop.security.key.provider.path)"));
  }
}
