package org.tropos.s3.ops;

import java.util.Locale;
import java.util.function.Function;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.http.S3Response;

/**
 * S3 server-side encryption as a write asks for it and a response tells it: {@code x-amz-server-side-encryption:
 * AES256} is SSE-S3 (the object's data encrypted at rest under a data key of its own, which the OMs keep wrapped);
 * a write that asks for none gets its bucket's default encryption (PutBucketEncryption). SSE-KMS and SSE-C are
 * refused as NotImplemented, so that an object is never stored less protected than asked.
 */
final class ServerSideEncryption {
  static final String HEADER = "x-amz-server-side-encryption";
  static final String AES256 = "AES256";
  /** Accepted and without effect for SSE-S3 (S3 Bucket Keys only change how SSE-KMS calls its KMS). */
  private static final String BUCKET_KEY = HEADER + "-bucket-key-enabled";

  private ServerSideEncryption() {
  }

  /**
   * The encryption a write's headers (or form fields) ask for; {@code names}: every header's name, {@code value}:
   * a header's value by its name in lower case. None asked is {@link EncryptionKind#ENCRYPTION_NONE}.
   */
  static EncryptionKind asked(Iterable<String> names, Function<String, String> value) throws S3Error {
    for (String name : names) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.startsWith(HEADER + "-") && !lower.equals(BUCKET_KEY)) {
        throw S3ErrorCode.NOT_IMPLEMENTED.error(lower + " is not implemented (SSE-C and SSE-KMS): the object would"
            + " not be stored as asked");
      }
    }
    String asked = value.apply(HEADER);
    if (asked == null) {
      return EncryptionKind.ENCRYPTION_NONE;
    }
    return kind(asked.strip());
  }

  /** The encryption named {@code algorithm} in a request ({@code AES256}). */
  static EncryptionKind kind(String algorithm) throws S3Error {
    if (algorithm.equals(AES256)) {
      return EncryptionKind.SSE_S3;
    }
    if (algorithm.startsWith("aws:kms")) {
      throw S3ErrorCode.NOT_IMPLEMENTED.error("Server-side encryption " + S3Error.quote(algorithm) + " (SSE-KMS)"
          + " is not implemented: only AES256 (SSE-S3)");
    }
    throw S3ErrorCode.INVALID_ARGUMENT.error("The encryption method specified is not supported: "
        + S3Error.quote(algorithm));
  }

  /**
   * {@code request} as written to {@code bucket}: encrypted as it asks, else as the bucket's default encryption
   * says (read again when the bucket changed since).
   */
  static OpenKeyRequest withDefault(OpenKeyRequest request, BucketInfo bucket) {
    if (request.getEncryption().getKind() != EncryptionKind.ENCRYPTION_NONE || !bucket.hasEncryption()
        || !request.getUploadId().isEmpty()) {
      return request;
    }
    OpenKeyRequest.Builder encrypted = request.toBuilder();
    encrypted.getEncryptionBuilder().setKind(bucket.getEncryption().getKind());
    return encrypted.build();
  }

  /** The encryption a copy to {@code bucket} asked to be encrypted as {@code asked} gets. */
  static EncryptionKind ofCopy(EncryptionKind asked, BucketInfo bucket) {
    return asked != EncryptionKind.ENCRYPTION_NONE || !bucket.hasEncryption() ? asked
        : bucket.getEncryption().getKind();
  }

  /** How {@code key} is encrypted, as S3 names it; null: not encrypted. */
  static String algorithm(KeyInfo key) {
    return key.hasEncryption() && key.getEncryption().getKind() == EncryptionKind.SSE_S3 ? AES256 : null;
  }

  /** Tells, in a response about {@code key} (its PUT, GET, HEAD, copy), how it is encrypted. */
  static void describe(KeyInfo key, S3Response out) {
    String algorithm = algorithm(key);
    if (algorithm != null) {
      out.headers().set(HEADER, algorithm);
    }
  }
}
