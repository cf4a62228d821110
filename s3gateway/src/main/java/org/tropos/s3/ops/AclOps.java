package org.tropos.s3.ops;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * Get/PutBucketAcl and Get/PutObjectAcl with S3's canned ACLs: given by {@code x-amz-acl}, or as an
 * AccessControlPolicy document whose grants are exactly those of a canned ACL. Any other grant (to a named user,
 * by {@code x-amz-grant-*}) is NotImplemented, and nothing changes.
 */
final class AclOps {
  private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
  private static final String AUTHENTICATED_USERS = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
  private static final Map<String, CannedAcl> CANNED = Map.of("private", CannedAcl.ACL_PRIVATE, "public-read",
      CannedAcl.ACL_PUBLIC_READ, "public-read-write", CannedAcl.ACL_PUBLIC_READ_WRITE, "authenticated-read",
      CannedAcl.ACL_AUTHENTICATED_READ, "bucket-owner-read", CannedAcl.ACL_BUCKET_OWNER_READ,
      "bucket-owner-full-control", CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL);
  private static final List<String> GRANT_HEADERS = List.of("x-amz-grant-read", "x-amz-grant-write",
      "x-amz-grant-read-acp", "x-amz-grant-write-acp", "x-amz-grant-full-control");

  /** One grant of an ACL document: to the owner, the bucket's owner, or a group, with a permission. */
  private record Grant(String grantee, String permission) {
  }

  private final TroposClient om;
  private final BucketOps buckets;

  AclOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  /**
   * The canned ACL a request sets with {@code x-amz-acl} (private when it sets none); NotImplemented for
   * explicit grants, which only canned ACLs stand for here.
   */
  static CannedAcl fromHeaders(S3Request request) throws S3Error {
    for (String grant : GRANT_HEADERS) {
      if (request.header(grant) != null) {
        throw S3ErrorCode.NOT_IMPLEMENTED.error(grant + " is not implemented: set a canned ACL with x-amz-acl");
      }
    }
    return canned(request.header("x-amz-acl"));
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

  void getBucketAcl(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    out.send(200, document(bucket.getOwner(), bucket.getOwner(), bucket.getAcl()), "application/xml");
  }

  void putBucketAcl(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    CannedAcl acl = requested(request, bucket.getOwner(), bucket.getOwner());
    if (acl == CannedAcl.ACL_BUCKET_OWNER_READ || acl == CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("bucket-owner-read and bucket-owner-full-control are object ACLs");
    }
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume(buckets.volume()).setName(request.bucket()).setAcl(acl).build()));
    out.send(200, new byte[0], null);
  }

  void getObjectAcl(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.find(request);
    KeyInfo key = ObjectReads.changeable(om, buckets, bucket, request, caller);
    Versions.header(bucket, key, out);
    out.send(200, document(key.getOwner(), bucket.getOwner(), key.getAcl()), "application/xml");
  }

  void putObjectAcl(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.find(request);
    KeyInfo checked = ObjectReads.changeable(om, buckets, bucket, request, caller);
    CannedAcl acl = requested(request, checked.getOwner(), bucket.getOwner());
    KeyInfo changed = OmCalls.againIfChanged(() -> {
      KeyInfo key = ObjectReads.changeable(om, buckets, bucket, request, caller);
      return OmCalls.call(request.bucket(), request.key(), () -> om.setKeyAcl(SetKeyAclRequest.newBuilder()
          .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
          .setVersionId(key.getVersionId()).setExpectedObjectId(key.getObjectId()).setAcl(acl).build()));
    });
    Versions.header(bucket, changed, out);
    out.send(200, new byte[0], null);
  }

  /** The canned ACL a Put*Acl request sets: by header, or by a document of exactly a canned ACL's grants. */
  private static CannedAcl requested(S3Request request, String owner, String bucketOwner)
      throws S3Error, IOException {
    InputStream body = request.body();
    byte[] document = body.readNBytes(XmlInput.MAX_BYTES + 1);
    boolean byHeader = request.header("x-amz-acl") != null || GRANT_HEADERS.stream()
        .anyMatch(h -> request.header(h) != null);
    if (byHeader) {
      if (document.length > 0) {
        throw S3ErrorCode.UNEXPECTED_CONTENT.error("This request does not support content with an ACL header");
      }
      return fromHeaders(request);
    }
    if (document.length == 0) {
      throw S3ErrorCode.MISSING_SECURITY_HEADER.error("Your request was missing a required header: x-amz-acl, or"
          + " an AccessControlPolicy document");
    }
    return fromDocument(XmlInput.parse(new java.io.ByteArrayInputStream(document), S3ErrorCode.MALFORMED_ACL),
        owner, bucketOwner);
  }

  private static CannedAcl fromDocument(Element policy, String owner, String bucketOwner) throws S3Error {
    List<Element> lists = XmlInput.children(policy, "AccessControlList");
    if (!policy.getTagName().equals("AccessControlPolicy") || lists.size() != 1) {
      throw S3ErrorCode.MALFORMED_ACL.error();
    }
    List<Grant> grants = new ArrayList<>();
    for (Element grant : XmlInput.children(lists.get(0), "Grant")) {
      List<Element> grantees = XmlInput.children(grant, "Grantee");
      String permission = XmlInput.text(grant, "Permission");
      if (grantees.size() != 1 || permission == null) {
        throw S3ErrorCode.MALFORMED_ACL.error();
      }
      String uri = XmlInput.text(grantees.get(0), "URI");
      String id = XmlInput.text(grantees.get(0), "ID");
      String grantee = uri != null ? uri : id != null && id.equals(owner) ? "owner"
          : id != null && id.equals(bucketOwner) ? "bucket-owner" : "other";
      grants.add(new Grant(grantee, permission));
    }
    for (CannedAcl acl : CANNED.values()) {
      if (new java.util.HashSet<>(grants(acl, owner, bucketOwner)).equals(new java.util.HashSet<>(grants))) {
        return acl;
      }
    }
    throw S3ErrorCode.NOT_IMPLEMENTED.error("only the grants of a canned ACL (private, public-read,"
        + " public-read-write, authenticated-read, bucket-owner-read, bucket-owner-full-control) are implemented");
  }

  /** The grants a canned ACL stands for: groups' first, then the owner's, then the bucket owner's (as RGW). */
  private static List<Grant> grants(CannedAcl acl, String owner, String bucketOwner) {
    List<Grant> grants = new ArrayList<>();
    switch (acl) {
      case ACL_PUBLIC_READ -> grants.add(new Grant(ALL_USERS, "READ"));
      case ACL_PUBLIC_READ_WRITE -> grants.addAll(List.of(new Grant(ALL_USERS, "READ"),
          new Grant(ALL_USERS, "WRITE")));
      case ACL_AUTHENTICATED_READ -> grants.add(new Grant(AUTHENTICATED_USERS, "READ"));
      default -> {
      }
    }
    grants.add(new Grant("owner", "FULL_CONTROL"));
    boolean otherOwner = !owner.equals(bucketOwner);
    if (acl == CannedAcl.ACL_BUCKET_OWNER_READ && otherOwner) {
      grants.add(new Grant("bucket-owner", "READ"));
    } else if (acl == CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL && otherOwner) {
      grants.add(new Grant("bucket-owner", "FULL_CONTROL"));
    }
    return grants;
  }

  /** The AccessControlPolicy document of a resource owned by {@code owner} with {@code acl}. */
  static byte[] document(String owner, String bucketOwner, CannedAcl acl) {
    Xml xml = Xml.document("AccessControlPolicy").open("Owner").element("ID", owner).element("DisplayName", owner)
        .close("Owner").open("AccessControlList");
    for (Grant grant : grants(acl, owner, bucketOwner)) {
      xml.open("Grant");
      String user = grant.grantee().equals("owner") ? owner : grant.grantee().equals("bucket-owner") ? bucketOwner
          : null;
      if (user != null) {
        xml.openWithAttributes("Grantee", "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xsi:type=\"CanonicalUser\"").element("ID", user).element("DisplayName", user);
      } else {
        xml.openWithAttributes("Grantee", "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xsi:type=\"Group\"").element("URI", grant.grantee());
      }
      xml.close("Grantee").element("Permission", grant.permission()).close("Grant");
    }
    return xml.close("AccessControlList").close("AccessControlPolicy").bytes();
  }
}
