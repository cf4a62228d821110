package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.AclGroup;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.OmResult;

/** Refuses an ACL given grant by grant whose grant names no grantee or no permission, before anything is kept. */
final class AclGrantChecks {
  private AclGrantChecks() {
  }

  static void check(AclGrants grants) throws OmException {
    for (AclGrant grant : grants.getGrantsList()) {
      boolean grantee = switch (grant.getGranteeCase()) {
        case USER -> !grant.getUser().isEmpty();
        case GROUP -> grant.getGroup() != AclGroup.ACL_GROUP_UNSPECIFIED && grant.getGroup() != AclGroup.UNRECOGNIZED;
        case GRANTEE_NOT_SET -> false;
      };
      if (!grantee || grant.getPermission() == AclPermission.ACL_PERMISSION_UNSPECIFIED
          || grant.getPermission() == AclPermission.UNRECOGNIZED) {
        throw new OmException(OmResult.INVALID_REQUEST, "an ACL grant needs a user or a known group, and a"
            + " permission: " + grant);
      }
    }
    if (!grants.getGiven() && grants.getGrantsCount() > 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "ACL grants sent without given set");
    }
  }
}
