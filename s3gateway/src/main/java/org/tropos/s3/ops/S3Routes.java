package org.tropos.s3.ops;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tropos.common.acl.S3Actions;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * The one table from a request's method, resource (the service, a bucket or an object) and sub-resource to the
 * operation that serves it. A sub-resource is a query parameter that names an operation ({@code ?acl},
 * {@code ?versioning}): S3 defines many, and a request naming one we do not serve is answered NotImplemented
 * before anything is read or written. It never falls through to the plain operation on the same resource (a
 * {@code PUT ?acl} must not overwrite the object with the ACL document).
 *
 * <p>Immutable once built; thread-safe.
 */
final class S3Routes {
  /** What a request addresses. */
  enum Resource {
    SERVICE, BUCKET, OBJECT;

    static Resource of(S3Request request) {
      return request.bucket().isEmpty() ? SERVICE : request.key().isEmpty() ? BUCKET : OBJECT;
    }
  }

  /** One S3 operation. */
  @FunctionalInterface
  interface Operation {
    void serve(S3Request request, Caller caller, S3Response out) throws S3Error, IOException;
  }

  /** An operation, and the S3 action that bucket policies know it as ({@link S3Actions}). */
  record Route(Operation operation, String action) {
  }

  /**
   * Every query parameter that S3 defines as a sub-resource of a bucket or an object (from S3's API reference),
   * whether we serve it or not. Parameters that only qualify an operation ({@code versionId}, {@code partNumber},
   * {@code prefix}, {@code list-type}, the signature's) are not among them.
   */
  static final Set<String> SUB_RESOURCES = Set.of("abac", "accelerate", "acl", "analytics", "attributes", "cors",
      "delete", "encryption", "intelligent-tiering", "inventory", "legal-hold", "lifecycle", "location", "logging",
      "metadataConfiguration", "metadataInventoryTable", "metadataJournalTable", "metadataTable", "metrics",
      "notification", "object-lock", "ownershipControls", "policy", "policyStatus", "publicAccessBlock",
      "renameObject", "replication", "requestPayment", "restore", "retention", "select", "session", "tagging",
      "torrent", "uploadId", "uploads", "versioning", "versions", "website");

  /** The methods S3 has: another is MethodNotAllowed, one of these on a route we lack NotImplemented. */
  private static final Set<String> S3_METHODS = Set.of("GET", "HEAD", "PUT", "POST", "DELETE");

  private final Map<String, Route> routes = new HashMap<>();

  /**
   * Routes {@code method} on {@code resource} with {@code subResource} ("" for none) to {@code operation}, which is
   * S3 action {@code action}.
   */
  S3Routes add(String method, Resource resource, String subResource, String action, Operation operation) {
    if (!subResource.isEmpty() && !SUB_RESOURCES.contains(subResource)) {
      throw new IllegalStateException(subResource + " is not an S3 sub-resource");
    }
    if (routes.put(key(method, resource, subResource), new Route(operation, action)) != null) {
      throw new IllegalStateException(method + " " + resource + " ?" + subResource + " is routed twice");
    }
    return this;
  }

  /** The route of {@code request}; an error if none serves it (nothing has been done then). */
  Route find(S3Request request) throws S3Error {
    Resource resource = Resource.of(request);
    List<String> named = subResources(request);
    if (named.size() > 1) {
      throw S3ErrorCode.INVALID_REQUEST.error("A request names one sub-resource; this one names " + named);
    }
    String subResource = named.isEmpty() ? "" : named.get(0);
    Route route = routes.get(key(request.method(), resource, subResource));
    if (route != null) {
      return route;
    }
    if (!S3_METHODS.contains(request.method()) || (resource == Resource.SERVICE && subResource.isEmpty())) {
      throw S3ErrorCode.METHOD_NOT_ALLOWED.error(request.method() + " is not allowed on this resource");
    }
    String what = subResource.isEmpty() ? request.method() + " on " + (resource == Resource.BUCKET ? "a bucket"
        : "an object") : request.method() + " ?" + subResource + " on " + (resource == Resource.OBJECT ? "an object"
        : "a bucket");
    throw S3ErrorCode.NOT_IMPLEMENTED.error(what + " is not implemented");
  }

  /**
   * The operation a request asks for, as the gateway's metrics name it: {@code GET OBJECT},
   * {@code PUT OBJECT ?uploadId}, {@code PUT OBJECT copy}; one name for every method S3 lacks, so that no client
   * can add names.
   */
  static String operationName(S3Request request) {
    if (!S3_METHODS.contains(request.method())) {
      return request.method().equals("OPTIONS") ? "OPTIONS" : "OTHER";
    }
    Resource resource = Resource.of(request);
    List<String> named = subResources(request);
    String name = request.method() + " " + resource + (named.size() == 1 ? " ?" + named.get(0) : "");
    boolean copy = resource == Resource.OBJECT && named.isEmpty() && request.method().equals("PUT")
        && request.header("x-amz-copy-source") != null;
    return copy ? name + " copy" : name;
  }

  private static List<String> subResources(S3Request request) {
    List<String> named = new ArrayList<>();
    for (String parameter : request.query().keySet()) {
      if (SUB_RESOURCES.contains(parameter)) {
        named.add(parameter);
      }
    }
    return named;
  }

  private static String key(String method, Resource resource, String subResource) {
    return method + " " + resource + " " + subResource;
  }
}
