package org.tropos.s3.ops;

import org.tropos.common.rpc.OmException;
import org.tropos.s3.S3Error;

/** The S3 error for an OM failure. */
final class OmErrors {
  private OmErrors() {
  }

  static S3Error of(OmException e, String bucket, String key) {
    return switch (e.result()) {
      case BUCKET_NOT_FOUND, VOLUME_NOT_FOUND -> S3Error.noSuchBucket(bucket);
      case KEY_NOT_FOUND, DIRECTORY_NOT_FOUND, NOT_A_FILE, NOT_A_DIRECTORY -> S3Error.noSuchKey(key);
      case BUCKET_ALREADY_EXISTS -> new S3Error("BucketAlreadyExists", 409, "The requested bucket name is not"
          + " available: " + bucket);
      case BUCKET_NOT_EMPTY -> new S3Error("BucketNotEmpty", 409, "The bucket you tried to delete is not empty: "
          + bucket);
      case INVALID_PATH -> new S3Error("InvalidArgument", 400, e.getMessage());
      case INVALID_REQUEST -> bucket.isEmpty() || key.isEmpty()
          ? new S3Error("InvalidBucketName", 400, e.getMessage()) : S3Error.invalidArgument(e.getMessage());
      case QUOTA_EXCEEDED -> new S3Error("QuotaExceeded", 403, e.getMessage());
      case OM_NOT_READY, SCM_UNAVAILABLE -> new S3Error("ServiceUnavailable", 503, e.getMessage());
      case TOO_MANY_CONFLICTS -> new S3Error("SlowDown", 503, e.getMessage());
      case S3_SECRET_NOT_FOUND -> new S3Error("InvalidAccessKeyId", 403, "The AWS access key Id you provided does"
          + " not exist in our records.");
      case NO_SUCH_UPLOAD -> new S3Error("NoSuchUpload", 404, "The specified multipart upload does not exist.");
      case INVALID_PART -> new S3Error("InvalidPart", 400, e.getMessage());
      case INVALID_PART_ORDER -> new S3Error("InvalidPartOrder", 400, e.getMessage());
      case ENTITY_TOO_SMALL -> new S3Error("EntityTooSmall", 400, "Your proposed upload is smaller than the minimum"
          + " allowed object size: " + e.getMessage());
      default -> S3Error.internal(e.result() + ": " + e.getMessage());
    };
  }
}
