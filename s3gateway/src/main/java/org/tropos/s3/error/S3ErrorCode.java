package org.tropos.s3.error;

/**
 * Every S3 error the gateway answers: S3's code, its HTTP status and S3's own wording, in one table
 * (STYLE.md, "s3gateway maps Result to an S3 code and HTTP status in one table"). A failure is made with
 * {@link #error()} or, naming the object or condition that failed, {@link #error(String)}.
 */
public enum S3ErrorCode {
  ACCESS_DENIED("AccessDenied", 403, "Access Denied"),
  ACCESS_FORBIDDEN("AccessForbidden", 403, "CORSResponse: CORS is not enabled for this bucket."),
  ACCESS_CONTROL_LIST_NOT_SUPPORTED("AccessControlListNotSupported", 400, "The bucket does not allow ACLs"),
  BAD_DIGEST("BadDigest", 400, "The Content-MD5 you specified did not match what we received."),
  BAD_REQUEST("BadRequest", 400, "Bad Request"),
  BUCKET_ALREADY_EXISTS("BucketAlreadyExists", 409, "The requested bucket name is not available. The bucket"
      + " namespace is shared by all users of the system. Please select a different name and try again."),
  BUCKET_NOT_EMPTY("BucketNotEmpty", 409, "The bucket you tried to delete is not empty"),
  CONDITIONAL_REQUEST_CONFLICT("ConditionalRequestConflict", 409, "A conflicting operation occurred. Please"
      + " retry the request."),
  ENTITY_TOO_LARGE("EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed object size."),
  ENTITY_TOO_SMALL("EntityTooSmall", 400, "Your proposed upload is smaller than the minimum allowed object size."),
  EXPECTATION_FAILED("ExpectationFailed", 417, "Expectation Failed"),
  ILLEGAL_VERSIONING_CONFIGURATION("IllegalVersioningConfigurationException", 400, "The versioning configuration"
      + " specified in the request is invalid."),
  INCOMPLETE_BODY("IncompleteBody", 400, "You did not provide the number of bytes specified by the Content-Length"
      + " HTTP header."),
  INSUFFICIENT_STORAGE("InsufficientStorage", 507, "The cluster has no room left for the object's data: delete"
      + " objects or add space."),
  INTERNAL_ERROR("InternalError", 500, "We encountered an internal error. Please try again."),
  INVALID_ACCESS_KEY_ID("InvalidAccessKeyId", 403, "The AWS access key Id you provided does not exist in our"
      + " records."),
  INVALID_ARGUMENT("InvalidArgument", 400, "Invalid Argument"),
  INVALID_BUCKET_ACL_WITH_OWNERSHIP("InvalidBucketAclWithObjectOwnership", 400, "Bucket cannot have ACLs set with"
      + " ObjectOwnership's BucketOwnerEnforced setting"),
  INVALID_BUCKET_NAME("InvalidBucketName", 400, "The specified bucket is not valid."),
  INVALID_DIGEST("InvalidDigest", 400, "The Content-MD5 you specified is not valid."),
  INVALID_LOCATION_CONSTRAINT("InvalidLocationConstraint", 400, "The specified location-constraint is not valid."),
  INVALID_PART("InvalidPart", 400, "One or more of the specified parts could not be found. The part might not have"
      + " been uploaded, or the specified entity tag might not have matched the part's entity tag."),
  INVALID_PART_ORDER("InvalidPartOrder", 400, "The list of parts was not in ascending order. Parts must be ordered"
      + " by part number."),
  INVALID_POLICY_DOCUMENT("InvalidPolicyDocument", 400, "The content of the form does not meet the conditions"
      + " specified in the policy document."),
  INVALID_RANGE("InvalidRange", 416, "The requested range is not satisfiable"),
  INVALID_REQUEST("InvalidRequest", 400, "Invalid Request"),
  INVALID_STORAGE_CLASS("InvalidStorageClass", 400, "The storage class you specified is not valid"),
  INVALID_TAG("InvalidTag", 400, "The tag provided was not a valid tag."),
  KEY_TOO_LONG("KeyTooLongError", 400, "Your key is too long"),
  MALFORMED_ACL("MalformedACLError", 400, "The XML you provided was not well-formed or did not validate against our"
      + " published schema."),
  MALFORMED_POLICY("MalformedPolicy", 400, "Policies must be valid JSON and the first byte must be '{'"),
  MALFORMED_POST_REQUEST("MalformedPOSTRequest", 400, "The body of your POST request is not well-formed"
      + " multipart/form-data."),
  MALFORMED_XML("MalformedXML", 400, "The XML you provided was not well-formed or did not validate against our"
      + " published schema."),
  METADATA_TOO_LARGE("MetadataTooLarge", 400, "Your metadata headers exceed the maximum allowed metadata size."),
  METHOD_NOT_ALLOWED("MethodNotAllowed", 405, "The specified method is not allowed against this resource."),
  MISSING_SECURITY_HEADER("MissingSecurityHeader", 400, "Your request was missing a required header."),
  MISSING_CONTENT_LENGTH("MissingContentLength", 411, "You must provide the Content-Length HTTP header."),
  NO_SUCH_BUCKET("NoSuchBucket", 404, "The specified bucket does not exist"),
  NO_SUCH_BUCKET_POLICY("NoSuchBucketPolicy", 404, "The bucket policy does not exist"),
  NO_SUCH_CORS_CONFIGURATION("NoSuchCORSConfiguration", 404, "The CORS configuration does not exist"),
  NO_SUCH_OWNERSHIP_CONTROLS("OwnershipControlsNotFoundError", 404, "The bucket ownership controls were not"
      + " found"),
  NO_SUCH_KEY("NoSuchKey", 404, "The specified key does not exist."),
  NO_SUCH_ENCRYPTION_CONFIGURATION("ServerSideEncryptionConfigurationNotFoundError", 404, "The server side"
      + " encryption configuration was not found"),
  NO_SUCH_PUBLIC_ACCESS_BLOCK("NoSuchPublicAccessBlockConfiguration", 404, "The public access block configuration"
      + " was not found"),
  NO_SUCH_TAG_SET("NoSuchTagSet", 404, "The TagSet does not exist"),
  NO_SUCH_UPLOAD("NoSuchUpload", 404, "The specified multipart upload does not exist. The upload ID might be"
      + " invalid, or the multipart upload might have been aborted or completed."),
  NO_SUCH_VERSION("NoSuchVersion", 404, "The specified version does not exist."),
  NOT_IMPLEMENTED("NotImplemented", 501, "A header or query you provided implies functionality that is not"
      + " implemented."),
  OBJECT_EXISTS_AS_DIRECTORY("ObjectExistsAsDirectory", 409, "The key names a directory in this"
      + " FILE_SYSTEM_OPTIMIZED bucket: a file cannot have its name."),
  PARENT_IS_OBJECT("ParentIsObject", 409, "The key's path, or a part of it, is a file in this FILE_SYSTEM_OPTIMIZED"
      + " bucket: it cannot also be a directory."),
  PRECONDITION_FAILED("PreconditionFailed", 412, "At least one of the pre-conditions you specified did not hold"),
  QUOTA_EXCEEDED("QuotaExceeded", 403, "The bucket's quota would be exceeded."),
  REQUEST_HEADER_SECTION_TOO_LARGE("RequestHeaderSectionTooLarge", 400, "Your request header section exceeds the"
      + " maximum allowed size."),
  REQUEST_TIME_TOO_SKEWED("RequestTimeTooSkewed", 403, "The difference between the request time and the server's"
      + " time is too large."),
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503, "Please reduce your request rate."),
  SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403, "The request signature we calculated does not match the"
      + " signature you provided. Check your key and signing method."),
  UNEXPECTED_CONTENT("UnexpectedContent", 400, "This request does not support content."),
  UNRESOLVABLE_GRANT_BY_EMAIL("UnresolvableGrantByEmailAddress", 400, "The email address you provided does not"
      + " match any account on record."),
  SLOW_DOWN("SlowDown", 503, "Please reduce your request rate."),
  X_AMZ_CONTENT_SHA256_MISMATCH("XAmzContentSHA256Mismatch", 400, "The provided 'x-amz-content-sha256' header does"
      + " not match what was computed.");

  private final String code;
  private final int status;
  private final String message;

  S3ErrorCode(String code, int status, String message) {
    this.code = code;
    this.status = status;
    this.message = message;
  }

  /** S3's name of the error, as sent in the error document's {@code <Code>}. */
  public String code() {
    return code;
  }

  public int status() {
    return status;
  }

  /** The failure with S3's own message. */
  public S3Error error() {
    return new S3Error(this, message);
  }

  /** The failure with a message naming what failed. */
  public S3Error error(String detail) {
    return new S3Error(this, detail);
  }
}
