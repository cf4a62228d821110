package org.tropos.s3.ops;

import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGroup;
import org.tropos.proto.om.AclPermission;
import org.tropos.s3.http.Xml;

/** The AccessControlPolicy documents Get*Acl answers. */
final class AclDocuments {
  private static final String XSI = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";

  private AclDocuments() {
  }

  /** S3's name of a permission. */
  static String name(AclPermission permission) {
    return switch (permission) {
      case ACL_READ -> "READ";
      case ACL_WRITE -> "WRITE";
      case ACL_READ_ACP -> "READ_ACP";
      case ACL_WRITE_ACP -> "WRITE_ACP";
      case ACL_FULL_CONTROL -> "FULL_CONTROL";
      case ACL_PERMISSION_UNSPECIFIED, UNRECOGNIZED -> throw new IllegalArgumentException(permission.name());
    };
  }

  /** The document of a resource owned by {@code owner}, in a bucket of {@code bucketOwner}, with {@code acl}. */
  static byte[] document(String owner, String bucketOwner, S3Acl acl) {
    Xml xml = Xml.document("AccessControlPolicy").open("Owner").element("ID", owner).element("DisplayName", owner)
        .close("Owner").open("AccessControlList");
    for (AclGrant grant : acl.grants(owner, bucketOwner)) {
      xml.open("Grant");
      if (grant.getGranteeCase() == AclGrant.GranteeCase.USER) {
        xml.openWithAttributes("Grantee", XSI + " xsi:type=\"CanonicalUser\"").element("ID", grant.getUser())
            .element("DisplayName", grant.getUser());
      } else {
        xml.openWithAttributes("Grantee", XSI + " xsi:type=\"Group\"").element("URI",
            grant.getGroup() == AclGroup.ACL_ALL_USERS ? AclRequests.ALL_USERS : AclRequests.AUTHENTICATED_USERS);
      }
      xml.close("Grantee").element("Permission", name(grant.getPermission())).close("Grant");
    }
    return xml.close("AccessControlList").close("AccessControlPolicy").bytes();
  }
}
