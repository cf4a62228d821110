package org.tropos.s3.ops;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.tropos.common.acl.S3AclGrants;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGroup;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ObjectOwnership;
import org.tropos.s3.auth.S3Users;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * The ACL a request sets: a canned ACL by {@code x-amz-acl}, grants by {@code x-amz-grant-*} headers, or an
 * AccessControlPolicy document. A grantee is a user by its id (its access id: it must exist), the AllUsers or
 * AuthenticatedUsers group by its URI; users have no email address here, so a grant by email is unresolvable.
 * Grants that are exactly a canned ACL's are kept as that canned ACL.
 */
final class AclRequests {
  static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
  static final String AUTHENTICATED_USERS = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
  private static final Map<String, CannedAcl> CANNED = Map.of("private", CannedAcl.ACL_PRIVATE, "public-read",
      CannedAcl.ACL_PUBLIC_READ, "public-read-write", CannedAcl.ACL_PUBLIC_READ_WRITE, "authenticated-read",
      CannedAcl.ACL_AUTHENTICATED_READ, "bucket-owner-read", CannedAcl.ACL_BUCKET_OWNER_READ,
      "bucket-owner-full-control", CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL);
  private static final Map<String, AclPermission> GRANT_HEADERS = new LinkedHashMap<>();

  static {
    GRANT_HEADERS.put("x-amz-grant-read", AclPermission.ACL_READ);
    GRANT_HEADERS.put("x-amz-grant-write", AclPermission.ACL_WRITE);
    GRANT_HEADERS.put("x-amz-grant-read-acp", AclPermission.ACL_READ_ACP);
    GRANT_HEADERS.put("x-amz-grant-write-acp", AclPermission.ACL_WRITE_ACP);
    GRANT_HEADERS.put("x-amz-grant-full-control", AclPermission.ACL_FULL_CONTROL);
  }

  private final S3Users users;

  AclRequests(S3Users users) {
    this.users = users;
  }

  /** The canned ACL named {@code name} (private when null); NotImplemented for a name we do not know. */
  static CannedAcl canned(String name) throws S3Error {
    if (name == null) {
      return CannedAcl.ACL_PRIVATE;
    }
    CannedAcl acl = CANNED.get(name.strip().toLowerCase(Locale.ROOT));
    if (acl == null) {
      throw S3ErrorCode.NOT_IMPLEMENTED.error("the canned ACL " + S3Error.quote(name) + " is not implemented");
    }
    return acl;
  }

  /** Whether the request names an ACL in its headers. */
  static boolean inHeaders(S3Request request) {
    return request.header("x-amz-acl") != null
        || GRANT_HEADERS.keySet().stream().anyMatch(h -> request.header(h) != null);
  }

  /**
   * The ACL a request's headers set on what it creates (private when they set none). {@code owner} and
   * {@code bucketOwner} are known users whatever the OM says of them.
   */
  S3Acl fromHeaders(S3Request request, String owner, String bucketOwner) throws S3Error {
    List<AclGrant> grants = new ArrayList<>();
    boolean granted = false;
    for (Map.Entry<String, AclPermission> header : GRANT_HEADERS.entrySet()) {
      String value = request.header(header.getKey());
      if (value != null) {
        granted = true;
        for (String grantee : value.split(",")) {
          grants.add(fromHeader(grantee.strip(), header.getValue(), Set.copyOf(List.of(owner, bucketOwner))));
        }
      }
    }
    if (!granted) {
      return S3Acl.canned(canned(request.header("x-amz-acl")));
    }
    if (request.header("x-amz-acl") != null) {
      throw S3ErrorCode.INVALID_REQUEST.error("Specifying both Canned ACLs and Header Grants is not allowed");
    }
    return normalized(grants, owner, bucketOwner);
  }

  /**
   * The ACL a write's headers set on the object it creates for {@code owner} in {@code bucket}, if the bucket takes
   * it ({@link #checkTaken}).
   */
  S3Acl forWrite(S3Request request, String owner, BucketInfo bucket) throws S3Error {
    S3Acl acl = fromHeaders(request, owner, bucket.getOwner());
    checkTaken(bucket, acl, inHeaders(request));
    return acl;
  }

  /**
   * Fails unless {@code bucket} takes {@code acl} on a resource there, set by a request that names it or
   * not ({@code named}): where its owner owns every object (BucketOwnerEnforced) ACLs are disabled and a request may
   * name bucket-owner-full-control alone (AccessControlListNotSupported); where Block Public Access blocks public
   * ACLs, none may grant everyone or every signed-in user (AccessDenied).
   */
  static void checkTaken(BucketInfo bucket, S3Acl acl, boolean named) throws S3Error {
    if (named && bucket.getObjectOwnership() == ObjectOwnership.BUCKET_OWNER_ENFORCED
        && acl.canned() != CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL) {
      throw S3ErrorCode.ACCESS_CONTROL_LIST_NOT_SUPPORTED.error("The bucket " + S3Error.quote(bucket.getName())
          + " does not allow ACLs: its owner owns every object (BucketOwnerEnforced)");
    }
    if (bucket.getPublicAccessBlock().getBlockPublicAcls() && S3AclGrants.isPublic(acl.canned(), acl.given())) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied: bucket " + S3Error.quote(bucket.getName())
          + " blocks public ACLs (Block Public Access)");
    }
  }

  /** The ACL an AccessControlPolicy document sets on a resource of {@code owner} in {@code bucketOwner}'s bucket. */
  S3Acl fromDocument(byte[] document, String owner, String bucketOwner) throws S3Error, IOException {
    Element policy = XmlInput.parse(new ByteArrayInputStream(document), S3ErrorCode.MALFORMED_ACL);
    List<Element> lists = XmlInput.children(policy, "AccessControlList");
    if (!policy.getTagName().equals("AccessControlPolicy") || lists.size() != 1) {
      throw S3ErrorCode.MALFORMED_ACL.error();
    }
    Set<String> known = Set.copyOf(List.of(owner, bucketOwner));
    List<AclGrant> grants = new ArrayList<>();
    for (Element grant : XmlInput.children(lists.get(0), "Grant")) {
      List<Element> grantees = XmlInput.children(grant, "Grantee");
      AclPermission permission = permission(XmlInput.text(grant, "Permission"));
      if (grantees.size() != 1) {
        throw S3ErrorCode.MALFORMED_ACL.error();
      }
      grants.add(fromGrantee(grantees.get(0), permission, known));
    }
    return normalized(grants, owner, bucketOwner);
  }

  private AclGrant fromGrantee(Element grantee, AclPermission permission, Set<String> known) throws S3Error {
    String uri = XmlInput.text(grantee, "URI");
    String id = XmlInput.text(grantee, "ID");
    String email = XmlInput.text(grantee, "EmailAddress");
    if (uri != null) {
      return group(uri, permission);
    }
    if (id != null) {
      return user(id, permission, known);
    }
    if (email != null) {
      return byEmail(email);
    }
    throw S3ErrorCode.MALFORMED_ACL.error("a Grantee names a URI, an ID or an EmailAddress");
  }

  private AclGrant fromHeader(String grantee, AclPermission permission, Set<String> known) throws S3Error {
    int equals = grantee.indexOf('=');
    if (equals < 0) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("a grant header names its grantees as id=\"...\", uri=\"...\" or"
          + " emailAddress=\"...\", comma-separated: " + S3Error.quote(grantee));
    }
    String type = grantee.substring(0, equals).strip().toLowerCase(Locale.ROOT);
    String value = grantee.substring(equals + 1).strip();
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      value = value.substring(1, value.length() - 1);
    }
    return switch (type) {
      case "id" -> user(value, permission, known);
      case "uri" -> group(value, permission);
      case "emailaddress" -> byEmail(value);
      default -> throw S3ErrorCode.INVALID_ARGUMENT.error("unknown grantee type " + S3Error.quote(type));
    };
  }

  private AclGrant user(String id, AclPermission permission, Set<String> known) throws S3Error {
    if (!known.contains(id)) {
      try {
        users.requireKnown(id);
      } catch (S3Error e) {
        if (e.errorCode() != S3ErrorCode.INVALID_ACCESS_KEY_ID) {
          throw e;
        }
        throw S3ErrorCode.INVALID_ARGUMENT.error("Invalid id: no user " + S3Error.quote(id));
      }
    }
    return S3AclGrants.user(id, permission);
  }

  private static AclGrant group(String uri, AclPermission permission) throws S3Error {
    return switch (uri) {
      case ALL_USERS -> S3AclGrants.group(AclGroup.ACL_ALL_USERS, permission);
      case AUTHENTICATED_USERS -> S3AclGrants.group(AclGroup.ACL_AUTHENTICATED_USERS, permission);
      default -> throw S3ErrorCode.INVALID_ARGUMENT.error("Invalid group uri " + S3Error.quote(uri) + ": grants go to "
          + ALL_USERS + " or " + AUTHENTICATED_USERS);
    };
  }

  private static AclGrant byEmail(String email) throws S3Error {
    throw S3ErrorCode.UNRESOLVABLE_GRANT_BY_EMAIL.error("No user has the email address " + S3Error.quote(email)
        + ": users are known here by their id alone");
  }

  private static AclPermission permission(String name) throws S3Error {
    if (name != null) {
      for (AclPermission p : List.of(AclPermission.ACL_READ, AclPermission.ACL_WRITE, AclPermission.ACL_READ_ACP,
          AclPermission.ACL_WRITE_ACP, AclPermission.ACL_FULL_CONTROL)) {
        if (name.strip().equals(AclDocuments.name(p))) {
          return p;
        }
      }
    }
    throw S3ErrorCode.MALFORMED_ACL.error("unknown permission " + S3Error.quote(String.valueOf(name)));
  }

  /** The grants as the canned ACL they are exactly (the first in enum order, so private before the others). */
  private static S3Acl normalized(List<AclGrant> grants, String owner, String bucketOwner) {
    Set<AclGrant> wanted = new HashSet<>(grants);
    for (CannedAcl acl : Arrays.stream(CannedAcl.values()).filter(a -> a != CannedAcl.UNRECOGNIZED).toList()) {
      if (new HashSet<>(S3AclGrants.canned(acl, owner, bucketOwner)).equals(wanted)) {
        return S3Acl.canned(acl);
      }
    }
    return S3Acl.granting(grants);
  }

  /** The ACL a Put*Acl request sets: by headers, or by its document (not both). */
  S3Acl requested(S3Request request, String owner, String bucketOwner) throws S3Error, IOException {
    byte[] document = request.body().readNBytes(XmlInput.MAX_BYTES + 1);
    if (inHeaders(request)) {
      if (document.length > 0) {
        throw S3ErrorCode.UNEXPECTED_CONTENT.error("This request does not support content with an ACL header");
      }
      return fromHeaders(request, owner, bucketOwner);
    }
    if (document.length == 0) {
      throw S3ErrorCode.MISSING_SECURITY_HEADER.error("Your request was missing a required header: x-amz-acl, or"
          + " an AccessControlPolicy document");
    }
    return fromDocument(document, owner, bucketOwner);
  }
}
