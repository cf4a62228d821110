package org.tropos.s3.ops;

import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.TroposClient;
import org.tropos.common.util.Clock;
import org.tropos.proto.om.BucketLayout;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3IOException;
import org.tropos.s3.auth.RequestAuthenticator;
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

  private final RequestAuthenticator authenticator;
  private final Clock clock;
  private final BucketOps buckets;
  private final ObjectOps objects;
  private final ObjectListing listing;
  private final MultipartOps multipart;
  private final CopyOps copies;
  private final DeleteObjectsOp bulkDelete;
  private final TaggingOps tagging;

  public S3Dispatcher(TroposClient om, RequestAuthenticator authenticator, Clock clock, String volume,
      BucketLayout layout, List<String> administrators) {
    this.authenticator = authenticator;
    this.clock = clock;
    this.buckets = new BucketOps(om, volume, layout, new Access(administrators));
    this.objects = new ObjectOps(om, buckets);
    this.listing = new ObjectListing(om, buckets);
    this.multipart = new MultipartOps(om, buckets, objects);
    this.copies = new CopyOps(om, buckets);
    this.bulkDelete = new DeleteObjectsOp(om, buckets);
    this.tagging = new TaggingOps(om, buckets);
  }

  @Override
  public void handle(S3Request request, S3Response out) {
    long start = clock.monotonicNanos();
    try {
      RequestAuthenticator.Signed signed = authenticator.authenticate(request.method(), request.rawPath(),
          request.resourcePath(), request.query(), request::header, request.amzHeaders(), clock.wallTime());
      route(request, signed, out);
    } catch (S3Error e) {
      fail(request, out, e);
    } catch (S3IOException e) {
      fail(request, out, e.error());
    } catch (IOException e) {
      LOG.warn("S3 {} {}/{}: {}", request.method(), request.bucket(), request.key(), e.toString());
      fail(request, out, S3Error.internal(e.getMessage()));
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("S3 {} {}?{} took {} us", request.method(), request.rawPath(), request.query().keySet(),
          (clock.monotonicNanos() - start) / 1000);
    }
  }

  private void route(S3Request request, RequestAuthenticator.Signed signed, S3Response out)
      throws S3Error, IOException {
    String user = signed.accessId();
    String method = request.method();
    if (request.bucket().isEmpty()) {
      if (method.equals("GET")) {
        buckets.list(user, out);
        return;
      }
      throw new S3Error("MethodNotAllowed", 405, "The specified method is not allowed against this resource.");
    }
    if (request.key().isEmpty()) {
      routeBucket(request, user, out);
      return;
    }
    routeObject(request, signed, out);
  }

  private void routeObject(S3Request request, RequestAuthenticator.Signed signed, S3Response out)
      throws S3Error, IOException {
    String user = signed.accessId();
    boolean upload = request.hasParam("uploadId");
    if (request.hasParam("tagging")) {
      routeTagging(request, user, out);
      return;
    }
    switch (request.method()) {
      case "PUT" -> {
        if (upload) {
          multipart.uploadPart(request, signed, out);
        } else if (request.header("x-amz-copy-source") != null) {
          copies.copy(request, user, out);
        } else {
          objects.put(request, signed, out);
        }
      }
      case "POST" -> {
        if (request.hasParam("uploads")) {
          multipart.initiate(request, user, out);
        } else if (upload) {
          multipart.complete(request, user, out);
        } else {
          throw S3Error.notImplemented("this POST");
        }
      }
      case "GET" -> {
        if (upload) {
          multipart.listParts(request, user, out);
        } else if (request.hasParam("acl")) {
          throw S3Error.notImplemented("this object sub-resource");
        } else {
          objects.get(request, user, out);
        }
      }
      case "HEAD" -> objects.head(request, user, out);
      case "DELETE" -> {
        if (upload) {
          multipart.abort(request, user, out);
        } else {
          objects.delete(request, user, out);
        }
      }
      default -> throw new S3Error("MethodNotAllowed", 405, request.method() + " is not allowed on an object");
    }
  }

  private void routeTagging(S3Request request, String user, S3Response out) throws S3Error, IOException {
    switch (request.method()) {
      case "GET" -> tagging.get(request, user, out);
      case "PUT" -> tagging.put(request, user, out);
      case "DELETE" -> tagging.delete(request, user, out);
      default -> throw new S3Error("MethodNotAllowed", 405, request.method() + " is not allowed on tagging");
    }
  }

  private void routeBucket(S3Request request, String user, S3Response out) throws S3Error, IOException {
    switch (request.method()) {
      case "PUT" -> buckets.create(request, user, out);
      case "HEAD" -> buckets.head(request, user, out);
      case "DELETE" -> buckets.delete(request, user, out);
      case "POST" -> {
        if (!request.hasParam("delete")) {
          throw S3Error.notImplemented("this POST");
        }
        bulkDelete.delete(request, user, out);
      }
      case "GET" -> {
        if (request.hasParam("location")) {
          buckets.location(request, user, out);
        } else if ("2".equals(request.param("list-type"))) {
          listing.listV2(request, user, out);
        } else if (request.hasParam("uploads")) {
          multipart.listUploads(request, user, out);
        } else if (request.hasParam("tagging") || request.hasParam("versioning")
            || request.hasParam("acl") || request.hasParam("policy") || request.hasParam("lifecycle")) {
          throw S3Error.notImplemented("this bucket sub-resource");
        } else {
          listing.listV1(request, user, out);
        }
      }
      default -> throw new S3Error("MethodNotAllowed", 405, request.method() + " is not allowed on a bucket");
    }
  }

  private static void fail(S3Request request, S3Response out, S3Error e) {
    if (e.status() >= 500) {
      LOG.warn("S3 {} {}/{}: {} {}", request.method(), request.bucket(), request.key(), e.code(), e.getMessage());
    } else {
      LOG.debug("S3 {} {}/{}: {} {}", request.method(), request.bucket(), request.key(), e.code(), e.getMessage());
    }
    if (out.sent()) {
      LOG.warn("S3 {} {}/{} failed after its response began: {}", request.method(), request.bucket(),
          request.key(), e.getMessage());
      return;
    }
    if (request.method().equals("HEAD")) {
      out.sendHead(e.status(), 0);
      return;
    }
    String resource = "/" + request.bucket() + (request.key().isEmpty() ? "" : "/" + request.key());
    byte[] body = ErrorDocument.of(e.code(), e.getMessage(), resource, out.requestId());
    out.send(e.status(), body, ErrorDocument.TYPE);
  }
}
