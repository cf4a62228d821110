package org.tropos.s3.ops;

import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketVersioning;
import org.tropos.proto.om.KeyInfo;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/** What S3 says of versions in requests and responses. */
final class Versions {
  private Versions() {
  }

  /** The version a request names ({@code versionId}), or "" for the latest. */
  static String requested(S3Request request) throws S3Error {
    String versionId = request.param("versionId");
    if (versionId != null && versionId.isEmpty()) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Version id cannot be the empty string");
    }
    return versionId == null ? "" : versionId;
  }

  /** Whether S3 shows version ids for the bucket's keys: once its versioning was set, even if suspended. */
  static boolean shown(BucketInfo bucket) {
    return bucket.getVersioning() != BucketVersioning.VERSIONING_NEVER_ENABLED;
  }

  /** The {@code x-amz-version-id} of a version a write made: S3 gives none for the "null" version. */
  static void written(KeyInfo key, S3Response out) {
    if (!key.getVersionId().equals("null") && !key.getVersionId().isEmpty()) {
      out.headers().set("x-amz-version-id", key.getVersionId());
    }
  }

  /** The {@code x-amz-version-id} of a key, when the bucket shows version ids. */
  static void header(BucketInfo bucket, KeyInfo key, S3Response out) {
    if (shown(bucket)) {
      out.headers().set("x-amz-version-id", key.getVersionId());
    }
  }
}
