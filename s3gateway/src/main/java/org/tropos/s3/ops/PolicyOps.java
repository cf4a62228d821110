package org.tropos.s3.ops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;

/**
 * Bucket policies: Put/Get/DeleteBucketPolicy and GetBucketPolicyStatus, the bucket owner's business (or whoever
 * the policy itself allows). The OM checks a policy when it stores it ({@code MalformedPolicy} otherwise) and keeps
 * the document as given, which GetBucketPolicy answers byte for byte.
 */
final class PolicyOps {
  /** S3's limit on a bucket policy's size. */
  static final int MAX_POLICY_BYTES = 20 * 1024;

  private final TroposClient om;
  private final BucketOps buckets;

  PolicyOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    if (bucket.getPolicy().isEmpty()) {
      throw S3ErrorCode.NO_SUCH_BUCKET_POLICY.error();
    }
    out.send(200, bucket.getPolicy().getBytes(StandardCharsets.UTF_8), "application/json");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    String policy = read(request.body());
    if (!policy.strip().startsWith("{")) {
      throw S3ErrorCode.MALFORMED_POLICY.error();
    }
    set(request, policy);
    out.send(204, new byte[0], null);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.OWNER);
    set(request, "");
    out.send(204, new byte[0], null);
  }

  /** GetBucketPolicyStatus: whether the bucket is public ({@link Access#isPublic}). */
  void status(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    out.send(200, Xml.document("PolicyStatus").element("IsPublic", Boolean.toString(Access.isPublic(bucket)))
        .close("PolicyStatus").bytes(), "application/xml");
  }

  private void set(S3Request request, String policy) throws S3Error {
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume(buckets.volume()).setName(request.bucket()).setSetPolicy(true).setPolicy(policy).build()));
  }

  private static String read(InputStream body) throws IOException, S3Error {
    byte[] bytes = body.readNBytes(MAX_POLICY_BYTES + 1);
    if (bytes.length > MAX_POLICY_BYTES) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("A bucket policy is at most " + MAX_POLICY_BYTES + " bytes");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
