package org.tropos.s3;

/** A failed S3 request: S3's error code and HTTP status, sent to the client as S3's XML error document. */
public final class S3Error extends Exception {
  private final String code;
  private final int status;

  public S3Error(String code, int status, String message) {
    super(message);
    this.code = code;
    this.status = status;
  }

  public String code() {
    return code;
  }

  public int status() {
    return status;
  }

  public static S3Error accessDenied(String message) {
    return new S3Error("AccessDenied", 403, message);
  }

  public static S3Error signatureDoesNotMatch() {
    return new S3Error("SignatureDoesNotMatch", 403, "The request signature we calculated does not match the"
        + " signature you provided. Check your key and signing method.");
  }

  public static S3Error invalidArgument(String message) {
    return new S3Error("InvalidArgument", 400, message);
  }

  public static S3Error noSuchBucket(String bucket) {
    return new S3Error("NoSuchBucket", 404, "The specified bucket does not exist: " + bucket);
  }

  public static S3Error noSuchKey(String key) {
    return new S3Error("NoSuchKey", 404, "The specified key does not exist: " + key);
  }

  public static S3Error notImplemented(String what) {
    return new S3Error("NotImplemented", 501, what + " is not implemented");
  }

  public static S3Error internal(String message) {
    return new S3Error("InternalError", 500, message);
  }
}
