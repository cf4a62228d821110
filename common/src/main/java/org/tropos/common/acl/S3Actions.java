package org.tropos.common.acl;

import java.util.Map;

/**
 * The names of the S3 actions that bucket policies allow or deny, as AWS spells them. The gateway names the action
 * of each request it serves; the OM the action of each call it checks.
 */
public final class S3Actions {
  public static final String GET_OBJECT = "s3:GetObject";
  public static final String PUT_OBJECT = "s3:PutObject";
  public static final String DELETE_OBJECT = "s3:DeleteObject";
  public static final String GET_OBJECT_ACL = "s3:GetObjectAcl";
  public static final String PUT_OBJECT_ACL = "s3:PutObjectAcl";
  public static final String GET_OBJECT_TAGGING = "s3:GetObjectTagging";
  public static final String PUT_OBJECT_TAGGING = "s3:PutObjectTagging";
  public static final String DELETE_OBJECT_TAGGING = "s3:DeleteObjectTagging";
  public static final String GET_OBJECT_ATTRIBUTES = "s3:GetObjectAttributes";
  public static final String LIST_ALL_MY_BUCKETS = "s3:ListAllMyBuckets";
  public static final String CREATE_BUCKET = "s3:CreateBucket";
  public static final String LIST_BUCKET = "s3:ListBucket";
  public static final String LIST_BUCKET_VERSIONS = "s3:ListBucketVersions";
  public static final String LIST_UPLOADS = "s3:ListBucketMultipartUploads";
  public static final String LIST_PARTS = "s3:ListMultipartUploadParts";
  public static final String ABORT_UPLOAD = "s3:AbortMultipartUpload";
  public static final String DELETE_BUCKET = "s3:DeleteBucket";
  public static final String GET_BUCKET_ACL = "s3:GetBucketAcl";
  public static final String PUT_BUCKET_ACL = "s3:PutBucketAcl";
  public static final String GET_BUCKET_POLICY = "s3:GetBucketPolicy";
  public static final String PUT_BUCKET_POLICY = "s3:PutBucketPolicy";
  public static final String DELETE_BUCKET_POLICY = "s3:DeleteBucketPolicy";
  public static final String GET_BUCKET_POLICY_STATUS = "s3:GetBucketPolicyStatus";
  public static final String GET_BUCKET_LOCATION = "s3:GetBucketLocation";
  public static final String GET_BUCKET_VERSIONING = "s3:GetBucketVersioning";
  public static final String PUT_BUCKET_VERSIONING = "s3:PutBucketVersioning";
  public static final String GET_BUCKET_TAGGING = "s3:GetBucketTagging";
  public static final String PUT_BUCKET_TAGGING = "s3:PutBucketTagging";
  public static final String GET_BUCKET_CORS = "s3:GetBucketCORS";
  public static final String GET_PUBLIC_ACCESS_BLOCK = "s3:GetBucketPublicAccessBlock";
  public static final String PUT_PUBLIC_ACCESS_BLOCK = "s3:PutBucketPublicAccessBlock";
  public static final String GET_OWNERSHIP_CONTROLS = "s3:GetBucketOwnershipControls";
  public static final String PUT_OWNERSHIP_CONTROLS = "s3:PutBucketOwnershipControls";
  public static final String PUT_BUCKET_CORS = "s3:PutBucketCORS";
  /** PutBucketEncryption and DeleteBucketEncryption (S3 has one action for both), GetBucketEncryption. */
  public static final String PUT_ENCRYPTION_CONFIGURATION = "s3:PutEncryptionConfiguration";
  public static final String GET_ENCRYPTION_CONFIGURATION = "s3:GetEncryptionConfiguration";

  /** The condition key of the version an S3 request names (S3's {@code versionId} parameter). */
  public static final String VERSION_ID = "s3:VersionId";

  /** The actions that act on one version of an object, by the action on the object's latest version. */
  private static final Map<String, String> ON_VERSION = Map.of(GET_OBJECT, "s3:GetObjectVersion", DELETE_OBJECT,
      "s3:DeleteObjectVersion", GET_OBJECT_ACL, "s3:GetObjectVersionAcl", PUT_OBJECT_ACL, "s3:PutObjectVersionAcl",
      GET_OBJECT_TAGGING, "s3:GetObjectVersionTagging", PUT_OBJECT_TAGGING, "s3:PutObjectVersionTagging",
      DELETE_OBJECT_TAGGING, "s3:DeleteObjectVersionTagging", GET_OBJECT_ATTRIBUTES,
      "s3:GetObjectVersionAttributes");

  private S3Actions() {
  }

  /** {@code action} as a request naming version {@code versionId} of an object asks it ("": none named). */
  public static String onVersion(String action, String versionId) {
    return versionId == null || versionId.isEmpty() ? action : ON_VERSION.getOrDefault(action, action);
  }

  /** Whether {@code action} manages the policy itself (a bucket's owner is never denied those). */
  public static boolean managesPolicy(String action) {
    return action.equals(GET_BUCKET_POLICY) || action.equals(PUT_BUCKET_POLICY) || action.equals(DELETE_BUCKET_POLICY);
  }
}
