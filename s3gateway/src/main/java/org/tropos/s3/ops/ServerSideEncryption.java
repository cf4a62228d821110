package org.tropos.s3.ops;

import com.google.protobuf.ByteString;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * S3 server-side encryption as a request asks for it and a response tells it. {@code x-amz-server-side-encryption:
 * AES256} is SSE-S3 (the object's data encrypted at rest under a data key of its own, which the OMs keep wrapped);
 * a write that asks for none gets its bucket's default encryption (PutBucketEncryption). SSE-C
 * ({@code x-amz-server-side-encryption-customer-algorithm}, {@code -key}, {@code -key-MD5}) encrypts under the key
 * the request carries, which is needed again to read the object and is kept nowhere; as in S3 it is refused over
 * plain HTTP. SSE-KMS ({@code aws:kms} with {@code x-amz-server-side-encryption-aws-kms-key-id}, or a bucket's
 * default naming its key) encrypts under a data key the OM's KMS makes under that key; DSSE-KMS and encryption
 * contexts are refused as NotImplemented, so that an object is never stored less protected than asked.
 */
final class ServerSideEncryption {
  static final String HEADER = "x-amz-server-side-encryption";
  static final String AES256 = "AES256";
  static final String CUSTOMER_ALGORITHM = HEADER + "-customer-algorithm";
  static final String CUSTOMER_KEY = HEADER + "-customer-key";
  static final String CUSTOMER_KEY_MD5 = HEADER + "-customer-key-md5";
  private static final String COPY_SOURCE = "x-amz-copy-source-";
  static final String AWS_KMS = "aws:kms";
  private static final String KMS_KEY_ID = HEADER + "-aws-kms-key-id";
  /** Accepted and without effect (S3 Bucket Keys only change how SSE-KMS calls its KMS). */
  private static final String BUCKET_KEY = HEADER + "-bucket-key-enabled";
  private static final int CUSTOMER_KEY_BYTES = 32;

  private ServerSideEncryption() {
  }

  /**
   * What a request asks: an encryption, for SSE-C the customer's key and its MD5 (as sent, base64), for SSE-KMS the
   * KMS key ("": the bucket's default's).
   */
  record Asked(EncryptionKind kind, byte[] customerKey, String customerKeyMd5, String kmsKeyId) {
    static final Asked NONE = new Asked(EncryptionKind.ENCRYPTION_NONE, null, null, "");

    /** The request to the OM's client that encrypts so (SSE-C's key goes to the client, which keeps it). */
    EncryptionRequest request() {
      EncryptionRequest.Builder asked = EncryptionRequest.newBuilder().setKind(kind).setKmsKeyId(kmsKeyId);
      if (customerKey != null) {
        asked.setDataKey(ByteString.copyFrom(customerKey));
      }
      return asked.build();
    }
  }

  /**
   * What a request's headers (or a form's fields) ask for; {@code names}: every header's name, {@code value}: a
   * header's value by its name in lower case, {@code secure}: whether it came over TLS.
   */
  static Asked asked(Iterable<String> names, Function<String, String> value, boolean secure) throws S3Error {
    String algorithm = value.apply(CUSTOMER_ALGORITHM);
    String key = value.apply(CUSTOMER_KEY);
    String md5 = value.apply(CUSTOMER_KEY_MD5);
    String asked = value.apply(HEADER);
    String kmsKey = value.apply(KMS_KEY_ID);
    if (algorithm != null || key != null || md5 != null) {
      if (asked != null || kmsKey != null) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("Server Side Encryption with Customer provided key is incompatible"
            + " with the encryption method specified");
      }
      return customer(algorithm, key, md5, secure);
    }
    if (kmsKey != null && (asked == null || !asked.strip().startsWith(AWS_KMS))) {
      throw S3ErrorCode.INVALID_ARGUMENT.error(KMS_KEY_ID + " is only valid with x-amz-server-side-encryption:"
          + " aws:kms");
    }
    for (String name : names) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.startsWith(HEADER + "-") && !lower.equals(BUCKET_KEY) && !lower.equals(KMS_KEY_ID)) {
        throw S3ErrorCode.NOT_IMPLEMENTED.error(lower + " is not implemented: the object would not be stored as"
            + " asked");
      }
    }
    return asked == null ? Asked.NONE : new Asked(kind(asked.strip()), null, null, kmsKey == null ? ""
        : kmsKey.strip());
  }

  /** What {@code request} asks (its headers). */
  static Asked asked(S3Request request) throws S3Error {
    return asked(request.headers().names(), request::header, request.secure());
  }

  private static Asked customer(String algorithm, String key, String md5, boolean secure) throws S3Error {
    if (!secure) {
      throw S3ErrorCode.INVALID_REQUEST.error("Requests specifying Server Side Encryption with Customer provided"
          + " keys must be made over a secure connection.");
    }
    if (algorithm == null || !algorithm.strip().equals(AES256)) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Requests specifying Server Side Encryption with Customer provided"
          + " keys must provide a valid encryption algorithm (AES256).");
    }
    if (key == null || md5 == null) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Requests specifying Server Side Encryption with Customer provided"
          + " keys must provide an appropriate secret key and its MD5.");
    }
    byte[] secret;
    try {
      secret = Base64.getDecoder().decode(key.strip());
    } catch (IllegalArgumentException e) {
      secret = new byte[0];
    }
    if (secret.length != CUSTOMER_KEY_BYTES) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("The secret key was invalid for the specified algorithm.");
    }
    if (!md5.strip().equals(Base64.getEncoder().encodeToString(md5(secret)))) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("The calculated MD5 hash of the key did not match the hash that was"
          + " provided.");
    }
    return new Asked(EncryptionKind.SSE_C, secret, md5.strip(), "");
  }

  /** The encryption named {@code algorithm} in a request or a bucket's configuration ({@code AES256}, aws:kms). */
  static EncryptionKind kind(String algorithm) throws S3Error {
    if (algorithm.equals(AES256)) {
      return EncryptionKind.SSE_S3;
    }
    if (algorithm.equals(AWS_KMS)) {
      return EncryptionKind.SSE_KMS;
    }
    if (algorithm.startsWith(AWS_KMS)) {
      throw S3ErrorCode.NOT_IMPLEMENTED.error("Server-side encryption " + S3Error.quote(algorithm) + " (DSSE-KMS)"
          + " is not implemented: AES256 (SSE-S3), aws:kms (SSE-KMS) and SSE-C are");
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
    encrypted.getEncryptionBuilder().setKind(bucket.getEncryption().getKind())
        .setKmsKeyId(bucket.getEncryption().getKmsKeyId());
    return encrypted.build();
  }

  /**
   * The encryption (kind, and SSE-KMS's key) an object written to {@code bucket} asked to be encrypted as
   * {@code asked} gets (a copy, or the object a multipart upload makes).
   */
  static EncryptionRequest of(Asked asked, BucketInfo bucket) {
    if (asked.kind() == EncryptionKind.ENCRYPTION_NONE && bucket.hasEncryption()) {
      return EncryptionRequest.newBuilder().setKind(bucket.getEncryption().getKind())
          .setKmsKeyId(bucket.getEncryption().getKmsKeyId()).build();
    }
    boolean bucketsKey = asked.kind() == EncryptionKind.SSE_KMS && asked.kmsKeyId().isEmpty()
        && bucket.getEncryption().getKind() == EncryptionKind.SSE_KMS;
    return EncryptionRequest.newBuilder().setKind(asked.kind()).setKmsKeyId(bucketsKey
        ? bucket.getEncryption().getKmsKeyId() : asked.kmsKeyId()).build();
  }

  /**
   * The customer's key to read {@code key} with (null: it is not SSE-C): the request must carry the key it was
   * written with, and carries none for an object that is not SSE-C. Refused (400) before anything is read.
   */
  static byte[] forRead(S3Request request, KeyInfo key) throws S3Error {
    if (request.header(HEADER) != null || request.header(KMS_KEY_ID) != null) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("A read names no encryption but SSE-C's: the object's own is used");
    }
    return customerKeyOf(asked(request), key);
  }

  /**
   * The customer's key to read a copy's {@code source} with (null: it is not SSE-C), from the request's
   * {@code x-amz-copy-source-server-side-encryption-customer-*} headers, checked as a read's are.
   */
  static byte[] forCopySource(S3Request request, KeyInfo source) throws S3Error {
    return customerKeyOf(asked(List.of(), name -> request.header(COPY_SOURCE + name.substring("x-amz-".length())),
        request.secure()), source);
  }

  /** The customer's key {@code asked} carries, if it is {@code key}'s; null when {@code key} is not SSE-C. */
  private static byte[] customerKeyOf(Asked asked, KeyInfo key) throws S3Error {
    boolean customers = key.getEncryption().getKind() == EncryptionKind.SSE_C;
    if (!customers) {
      if (asked.kind() == EncryptionKind.SSE_C) {
        throw S3ErrorCode.INVALID_REQUEST.error("The encryption parameters are not applicable to this object.");
      }
      return null;
    }
    if (asked.kind() != EncryptionKind.SSE_C) {
      throw S3ErrorCode.INVALID_REQUEST.error("The object was stored using a form of Server Side Encryption. The"
          + " correct parameters must be provided to retrieve the object.");
    }
    if (!TroposClient.isCustomerKeyOf(key, asked.customerKey())) {
      throw S3ErrorCode.INVALID_REQUEST.error("The provided customer key does not match the one the object was"
          + " encrypted with.");
    }
    return asked.customerKey();
  }

  /**
   * Tells, in a response about {@code key} (its PUT, GET, HEAD, copy, part), how it is encrypted; for SSE-C with
   * the MD5 of the key that {@code request} carried.
   */
  static void describe(KeyInfo key, S3Response out, Function<String, String> request) {
    if (key.getEncryption().getKind() == EncryptionKind.SSE_C) {
      out.headers().set(CUSTOMER_ALGORITHM, AES256);
      String md5 = request.apply(CUSTOMER_KEY_MD5);
      if (md5 != null) {
        out.headers().set(CUSTOMER_KEY_MD5, md5.strip());
      }
    } else if (key.getEncryption().getKind() == EncryptionKind.SSE_S3) {
      out.headers().set(HEADER, AES256);
    } else if (key.getEncryption().getKind() == EncryptionKind.SSE_KMS) {
      out.headers().set(HEADER, AWS_KMS);
      out.headers().set(KMS_KEY_ID, key.getEncryption().getKms().getKeyName());
    }
  }

  private static byte[] md5(byte[] bytes) {
    try {
      return MessageDigest.getInstance("MD5").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no MD5", e);
    }
  }
}
