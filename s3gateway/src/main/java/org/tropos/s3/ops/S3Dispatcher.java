package org.tropos.s3.ops;

import static org.tropos.s3.ops.S3Routes.Resource.BUCKET;
import static org.tropos.s3.ops.S3Routes.Resource.OBJECT;
import static org.tropos.s3.ops.S3Routes.Resource.SERVICE;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.TroposClient;
import org.tropos.common.acl.S3Actions;
import org.tropos.common.audit.AuditLog;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.common.util.Causes;
import org.tropos.common.util.Clock;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.om.BucketLayout;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.auth.RequestAuthenticator;
import org.tropos.s3.auth.S3Users;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.error.S3IOException;
import org.tropos.s3.http.ErrorDocument;
import org.tropos.s3.http.S3Handler;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * Authenticates every request, then routes it by method, bucket, key and sub-resource to its operation, and
 * turns failures into S3's error documents.
 */
public final class S3Dispatcher implements S3Handler {
  private static final Logger LOG = LoggerFactory.getLogger(S3Dispatcher.class);
  /** The gateway's audit log: one line per S3 request ({@link AuditLog}). */
  private static final AuditLog AUDIT = AuditLog.of("s3g");
  private static final int HTTP_ERRORS = 400;

  private final RequestAuthenticator authenticator;
  private final Clock clock;
  private final S3Routes routes;
  private final CorsOps cors;
  private final S3Meters meters;

  /** Serves S3 for the users the OM knows ({@code users}): it authenticates callers and resolves ACL grantees. */
  public S3Dispatcher(TroposClient om, S3Users users, Clock clock, String volume, BucketLayout layout,
      StorageClasses storageClasses, S3Meters meters) {
    this.meters = meters;
    this.authenticator = new RequestAuthenticator(users);
    this.clock = clock;
    AclRequests acls = new AclRequests(users);
    BucketOps buckets = new BucketOps(om, volume, layout, storageClasses, clock, acls);
    this.cors = new CorsOps(om, buckets);
    this.routes = routes(om, buckets, cors, acls, authenticator, clock);
  }

  private static S3Routes routes(TroposClient om, BucketOps buckets, CorsOps cors, AclRequests acls,
      RequestAuthenticator authenticator, Clock clock) {
    ObjectReads reads = new ObjectReads(om, buckets);
    ObjectWrites writes = new ObjectWrites(om, buckets, acls);
    ObjectListing listing = new ObjectListing(om, buckets);
    CopyOps copies = new CopyOps(om, buckets, acls, writes);
    MultipartOps multipart = new MultipartOps(om, buckets, writes, acls, copies);
    DeleteObjectsOp bulkDelete = new DeleteObjectsOp(om, buckets);
    TaggingOps tagging = new TaggingOps(om, buckets);
    VersioningOps versioning = new VersioningOps(om, buckets);
    AclOps aclOps = new AclOps(om, buckets, acls);
    ObjectAttributesOp attributes = new ObjectAttributesOp(om, buckets);
    PostObjectOp formUpload = new PostObjectOp(buckets, writes, authenticator, clock);
    return withBucketSettings(new S3Routes(), om, buckets)
        .add("GET", SERVICE, "", S3Actions.LIST_ALL_MY_BUCKETS, buckets::list)
        .add("PUT", BUCKET, "", S3Actions.CREATE_BUCKET, buckets::create)
        .add("HEAD", BUCKET, "", S3Actions.LIST_BUCKET, buckets::head)
        .add("DELETE", BUCKET, "", S3Actions.DELETE_BUCKET, buckets::delete)
        .add("POST", BUCKET, "", S3Actions.PUT_OBJECT, formUpload::post)
        .add("GET", BUCKET, "", S3Actions.LIST_BUCKET, listing::list)
        .add("GET", BUCKET, "location", S3Actions.GET_BUCKET_LOCATION, buckets::location)
        .add("GET", BUCKET, "uploads", S3Actions.LIST_UPLOADS, multipart::listUploads)
        .add("POST", BUCKET, "delete", S3Actions.DELETE_OBJECT, bulkDelete::delete)
        .add("GET", BUCKET, "versioning", S3Actions.GET_BUCKET_VERSIONING, versioning::get)
        .add("PUT", BUCKET, "versioning", S3Actions.PUT_BUCKET_VERSIONING, versioning::put)
        .add("GET", BUCKET, "versions", S3Actions.LIST_BUCKET_VERSIONS, versioning::list)
        .add("GET", BUCKET, "acl", S3Actions.GET_BUCKET_ACL, aclOps::getBucketAcl)
        .add("PUT", BUCKET, "acl", S3Actions.PUT_BUCKET_ACL, aclOps::putBucketAcl)
        .add("GET", BUCKET, "tagging", S3Actions.GET_BUCKET_TAGGING, tagging::getBucket)
        .add("PUT", BUCKET, "tagging", S3Actions.PUT_BUCKET_TAGGING, tagging::putBucket)
        .add("DELETE", BUCKET, "tagging", S3Actions.PUT_BUCKET_TAGGING, tagging::deleteBucket)
        .add("GET", BUCKET, "cors", S3Actions.GET_BUCKET_CORS, cors::get)
        .add("PUT", BUCKET, "cors", S3Actions.PUT_BUCKET_CORS, cors::put)
        .add("DELETE", BUCKET, "cors", S3Actions.PUT_BUCKET_CORS, cors::delete)
        .add("PUT", OBJECT, "", S3Actions.PUT_OBJECT, (r, c, o) -> {
          if (r.header("x-amz-copy-source") != null) {
            copies.copy(r, c, o);
          } else {
            writes.put(r, c, o);
          }
        })
        .add("GET", OBJECT, "", S3Actions.GET_OBJECT, reads::get)
        .add("HEAD", OBJECT, "", S3Actions.GET_OBJECT, reads::head)
        .add("DELETE", OBJECT, "", S3Actions.DELETE_OBJECT, writes::delete)
        .add("POST", OBJECT, "uploads", S3Actions.PUT_OBJECT, multipart::initiate)
        .add("PUT", OBJECT, "uploadId", S3Actions.PUT_OBJECT, multipart::uploadPart)
        .add("POST", OBJECT, "uploadId", S3Actions.PUT_OBJECT, multipart::complete)
        .add("GET", OBJECT, "uploadId", S3Actions.LIST_PARTS, multipart::listParts)
        .add("DELETE", OBJECT, "uploadId", S3Actions.ABORT_UPLOAD, multipart::abort)
        .add("GET", OBJECT, "tagging", S3Actions.GET_OBJECT_TAGGING, tagging::get)
        .add("PUT", OBJECT, "tagging", S3Actions.PUT_OBJECT_TAGGING, tagging::put)
        .add("DELETE", OBJECT, "tagging", S3Actions.DELETE_OBJECT_TAGGING, tagging::delete)
        .add("GET", OBJECT, "acl", S3Actions.GET_OBJECT_ACL, aclOps::getObjectAcl)
        .add("PUT", OBJECT, "acl", S3Actions.PUT_OBJECT_ACL, aclOps::putObjectAcl)
        .add("GET", OBJECT, "attributes", S3Actions.GET_OBJECT_ATTRIBUTES, attributes::get);
  }

  /** {@code routes} with those of the bucket settings that decide who may do what, and how objects are kept. */
  private static S3Routes withBucketSettings(S3Routes routes, TroposClient om, BucketOps buckets) {
    PolicyOps policies = new PolicyOps(om, buckets);
    PublicAccessBlockOps publicAccess = new PublicAccessBlockOps(om, buckets);
    OwnershipOps ownership = new OwnershipOps(om, buckets);
    BucketEncryptionOps encryption = new BucketEncryptionOps(om, buckets);
    return routes
        .add("GET", BUCKET, "policy", S3Actions.GET_BUCKET_POLICY, policies::get)
        .add("PUT", BUCKET, "policy", S3Actions.PUT_BUCKET_POLICY, policies::put)
        .add("DELETE", BUCKET, "policy", S3Actions.DELETE_BUCKET_POLICY, policies::delete)
        .add("GET", BUCKET, "policyStatus", S3Actions.GET_BUCKET_POLICY_STATUS, policies::status)
        .add("GET", BUCKET, "publicAccessBlock", S3Actions.GET_PUBLIC_ACCESS_BLOCK, publicAccess::get)
        .add("PUT", BUCKET, "publicAccessBlock", S3Actions.PUT_PUBLIC_ACCESS_BLOCK, publicAccess::put)
        .add("DELETE", BUCKET, "publicAccessBlock", S3Actions.PUT_PUBLIC_ACCESS_BLOCK, publicAccess::delete)
        .add("GET", BUCKET, "ownershipControls", S3Actions.GET_OWNERSHIP_CONTROLS, ownership::get)
        .add("PUT", BUCKET, "ownershipControls", S3Actions.PUT_OWNERSHIP_CONTROLS, ownership::put)
        .add("DELETE", BUCKET, "ownershipControls", S3Actions.PUT_OWNERSHIP_CONTROLS, ownership::delete)
        .add("GET", BUCKET, "encryption", S3Actions.GET_ENCRYPTION_CONFIGURATION, encryption::get)
        .add("PUT", BUCKET, "encryption", S3Actions.PUT_ENCRYPTION_CONFIGURATION, encryption::put)
        .add("DELETE", BUCKET, "encryption", S3Actions.PUT_ENCRYPTION_CONFIGURATION, encryption::delete);
  }

  @Override
  public void handle(S3Request request, S3Response out) {
    long start = clock.monotonicNanos();
    Caller caller = Caller.ANONYMOUS;
    String error = "";
    try {
      if (request.method().equals("OPTIONS")) {
        cors.preflight(request, out);
        return;
      }
      cors.addHeaders(request, out);
      Caller signed = authenticator.authenticate(request.method(), request.rawPath(),
          request.resourcePath(), request.query(), request::header, request.amzHeaders(), clock.wallTime());
      caller = signed;
      S3Routes.Route route = routes.find(request);
      caller = signed.asking(PolicyRequests.of(request, signed.accessId(), route.action()));
      try (S3RequestProofs.Acting acting = caller.acting()) {
        route.operation().serve(request, caller, out);
      }
    } catch (S3Error e) {
      error = fail(request, out, e);
    } catch (S3IOException e) {
      error = fail(request, out, e.error());
    } catch (IOException e) {
      LOG.warn("S3 {} {}/{}: {}", request.method(), request.bucket(), request.key(), e.toString());
      error = fail(request, out, (diskFull(e) ? S3ErrorCode.INSUFFICIENT_STORAGE : S3ErrorCode.INTERNAL_ERROR)
          .error(e.getMessage()));
    }
    long took = clock.monotonicNanos() - start;
    String operation = S3Routes.operationName(request);
    meters.record(operation, out.status(), took, bodyLength(request), out.bodyBytes());
    audit(request, operation, caller, out.status() < HTTP_ERRORS ? AuditLog.OK : out.status() + " " + error, took);
    if (LOG.isDebugEnabled()) {
      LOG.debug("S3 {} {}?{} took {} us", request.method(), request.rawPath(), request.query().keySet(),
          took / 1000);
    }
  }

  private static void audit(S3Request request, String operation, Caller caller, String result, long nanos) {
    AUDIT.record(new AuditLog.Entry(caller.accessId(), caller.anonymous() ? "ANONYMOUS" : "S3_SIGNATURE",
        request.from(), operation, "{bucket=" + request.bucket() + (request.key().isEmpty() ? "" : ", key="
        + request.key()) + "}", result, nanos / 1000));
  }

  /** The request body's bytes as the client declared them (the data's, for aws-chunked uploads). */
  private static long bodyLength(S3Request request) {
    String decoded = request.header("x-amz-decoded-content-length");
    String length = decoded != null ? decoded : request.header("content-length");
    try {
      return length == null ? 0 : Math.max(0, Long.parseLong(length.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Whether a write failed because the datanodes had no room left (their DISK_FULL refusals). */
  private static boolean diskFull(IOException e) {
    return Causes.any(e, t -> t instanceof DatanodeException d && d.result() == DatanodeResult.DISK_FULL);
  }

  /** Answers the error (unless the response began); returns its code, for the audit line. */
  private static String fail(S3Request request, S3Response out, S3Error e) {
    // 501 NotImplemented is the gateway's answer to what it does not do, not a fault of its own.
    if (e.status() >= 500 && e.errorCode() != S3ErrorCode.NOT_IMPLEMENTED) {
      LOG.warn("S3 {} {}/{}: {} {}", request.method(), request.bucket(), request.key(), e.code(), e.getMessage());
    } else {
      LOG.debug("S3 {} {}/{}: {} {}", request.method(), request.bucket(), request.key(), e.code(), e.getMessage());
    }
    if (out.sent()) {
      LOG.warn("S3 {} {}/{} failed after its response began: {}", request.method(), request.bucket(),
          request.key(), e.getMessage());
      return e.code();
    }
    e.headers().forEach(out.headers()::set);
    if (request.method().equals("HEAD")) {
      out.sendHead(e.status(), 0);
      return e.code();
    }
    String resource = "/" + request.bucket() + (request.key().isEmpty() ? "" : "/" + request.key());
    byte[] body = ErrorDocument.of(e.code(), e.getMessage(), resource, out.requestId());
    out.send(e.status(), body, ErrorDocument.TYPE);
    return e.code();
  }
}
