package org.tropos.s3.ops;

import org.tropos.common.rpc.OmException;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/** Calls to the OM with their failures turned into S3's errors: the one place that translates them. */
final class OmCalls {
  /** A call that answers. */
  @FunctionalInterface
  interface Call<T> {
    T call() throws OmException;
  }

  /** A call that only acts. */
  @FunctionalInterface
  interface Action {
    void run() throws OmException;
  }

  /** A check followed by a call acting on the object it checked. */
  @FunctionalInterface
  interface CheckedAct<T> {
    T run() throws S3Error;
  }

  private static final int CHANGE_ATTEMPTS = 3;

  private OmCalls() {
  }

  /**
   * Runs a check-then-act (an access check on a key's version, then a call that names the object it checked)
   * again when another write replaced that object in between (KEY_CHANGED), so that the act never lands on an
   * object nobody checked; at most {@value #CHANGE_ATTEMPTS} times, then ConditionalRequestConflict.
   */
  static <T> T againIfChanged(CheckedAct<T> attempt) throws S3Error {
    for (int tried = 1; ; tried++) {
      try {
        return attempt.run();
      } catch (S3Error e) {
        if (e.errorCode() != S3ErrorCode.CONDITIONAL_REQUEST_CONFLICT || tried == CHANGE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** The call's answer; an OM failure as the S3 error about {@code bucket} and {@code key} ("" for none). */
  static <T> T call(String bucket, String key, Call<T> call) throws S3Error {
    try {
      return call.call();
    } catch (OmException e) {
      throw translate(e, bucket, key);
    }
  }

  static void run(String bucket, String key, Action action) throws S3Error {
    call(bucket, key, () -> {
      action.run();
      return null;
    });
  }

  /** The S3 error for an OM failure about {@code bucket} and {@code key}. */
  static S3Error translate(OmException e, String bucket, String key) {
    return switch (e.result()) {
      case BUCKET_NOT_FOUND, VOLUME_NOT_FOUND -> S3ErrorCode.NO_SUCH_BUCKET.error("The specified bucket does not"
          + " exist: " + S3Error.quote(bucket));
      case KEY_NOT_FOUND, DIRECTORY_NOT_FOUND, NOT_A_FILE, NOT_A_DIRECTORY -> S3ErrorCode.NO_SUCH_KEY.error(
          "The specified key does not exist: " + S3Error.quote(key));
      case BUCKET_ALREADY_EXISTS -> S3ErrorCode.BUCKET_ALREADY_EXISTS.error();
      case BUCKET_NOT_EMPTY -> S3ErrorCode.BUCKET_NOT_EMPTY.error("The bucket you tried to delete is not empty: "
          + S3Error.quote(bucket));
      case INVALID_PATH -> S3ErrorCode.INVALID_ARGUMENT.error(e.getMessage());
      case INVALID_REQUEST -> bucket.isEmpty() || key.isEmpty() ? S3ErrorCode.INVALID_BUCKET_NAME.error(
          e.getMessage()) : S3ErrorCode.INVALID_ARGUMENT.error(e.getMessage());
      case QUOTA_EXCEEDED -> S3ErrorCode.QUOTA_EXCEEDED.error(e.getMessage());
      case NO_SPACE -> S3ErrorCode.INSUFFICIENT_STORAGE.error(e.getMessage());
      case OM_NOT_READY, NOT_LEADER, SCM_UNAVAILABLE, KMS_UNAVAILABLE -> S3ErrorCode.SERVICE_UNAVAILABLE.error(
          e.getMessage());
      case TOO_MANY_CONFLICTS -> S3ErrorCode.SLOW_DOWN.error(e.getMessage());
      case S3_SECRET_NOT_FOUND -> S3ErrorCode.INVALID_ACCESS_KEY_ID.error();
      case NO_SUCH_UPLOAD -> S3ErrorCode.NO_SUCH_UPLOAD.error();
      case INVALID_PART -> S3ErrorCode.INVALID_PART.error(e.getMessage());
      case INVALID_PART_ORDER -> S3ErrorCode.INVALID_PART_ORDER.error(e.getMessage());
      case PRECONDITION_FAILED, FILE_ALREADY_EXISTS -> S3ErrorCode.PRECONDITION_FAILED.error();
      case KEY_CHANGED, BUCKET_CHANGED -> S3ErrorCode.CONDITIONAL_REQUEST_CONFLICT.error(e.getMessage());
      case VERSION_NOT_FOUND -> S3ErrorCode.NO_SUCH_VERSION.error();
      case DELETE_MARKER -> S3ErrorCode.METHOD_NOT_ALLOWED.error("The specified method is not allowed against a"
          + " delete marker");
      case PERMISSION_DENIED -> S3ErrorCode.ACCESS_DENIED.error(e.getMessage());
      case NOT_SUPPORTED -> S3ErrorCode.NOT_IMPLEMENTED.error(e.getMessage());
      case MALFORMED_POLICY -> S3ErrorCode.MALFORMED_POLICY.error(e.getMessage());
      case INVALID_BUCKET_ACL_WITH_OWNERSHIP -> S3ErrorCode.INVALID_BUCKET_ACL_WITH_OWNERSHIP.error(e.getMessage());
      case ENTITY_TOO_SMALL -> S3ErrorCode.ENTITY_TOO_SMALL.error("Your proposed upload is smaller than the minimum"
          + " allowed object size: " + e.getMessage());
      default -> S3ErrorCode.INTERNAL_ERROR.error(e.result() + ": " + e.getMessage());
    };
  }
}
