package org.tropos.s3.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.acl.S3AclGrants;
import org.tropos.proto.om.AclGroup;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ObjectOwnership;
import org.tropos.proto.om.PublicAccessBlock;
import org.tropos.s3.auth.Caller;

class S3AclTest {
  private static final Caller ALT = new Caller("alt", false, List.of(), "", null, null, null, null, null, null);
  private static final BucketInfo BUCKET = BucketInfo.newBuilder().setName("b").setOwner("owner").build();
  private static final Caller OTHER = new Caller("other", false, List.of(), "", null, null, null, null, null, null);

  @Test
  void aGrantToAUserGivesThatUserThePermissionNamedAndFullControlGivesEveryPermission() {
    S3Acl acl = S3Acl.granting(List.of(S3AclGrants.user("alt", AclPermission.ACL_READ_ACP)));
    assertTrue(acl.allows(ALT, AclPermission.ACL_READ_ACP, "owner", BUCKET));
    assertFalse(acl.allows(ALT, AclPermission.ACL_READ, "owner", BUCKET));
    assertFalse(acl.allows(OTHER, AclPermission.ACL_READ_ACP, "owner", BUCKET));
    assertFalse(acl.allows(Caller.ANONYMOUS, AclPermission.ACL_READ_ACP, "owner", BUCKET));

    S3Acl full = S3Acl.granting(List.of(S3AclGrants.user("alt", AclPermission.ACL_FULL_CONTROL)));
    for (AclPermission p : List.of(AclPermission.ACL_READ, AclPermission.ACL_WRITE, AclPermission.ACL_READ_ACP,
        AclPermission.ACL_WRITE_ACP)) {
      assertTrue(full.allows(ALT, p, "owner", BUCKET), p.name());
    }
  }

  @Test
  void groupsGrantToEveryoneOrToSignedCallersOnly() {
    S3Acl authenticated = S3Acl.granting(List.of(S3AclGrants.group(AclGroup.ACL_AUTHENTICATED_USERS,
        AclPermission.ACL_READ)));
    assertTrue(authenticated.allows(OTHER, AclPermission.ACL_READ, "owner", BUCKET));
    assertFalse(authenticated.allows(Caller.ANONYMOUS, AclPermission.ACL_READ, "owner", BUCKET));
    assertTrue(S3Acl.canned(CannedAcl.ACL_PUBLIC_READ_WRITE).allows(Caller.ANONYMOUS, AclPermission.ACL_WRITE,
        "owner", BUCKET));
  }

  @Test
  void givenGrantsStandInsteadOfTheCannedAclAndAnEmptyListGrantsNothing() {
    S3Acl none = S3Acl.granting(List.of());
    assertEquals(List.of(), none.grants("owner", "owner"));
    assertFalse(none.allows(ALT, AclPermission.ACL_READ, "owner", BUCKET));
    assertEquals(List.of(S3AclGrants.user("owner", AclPermission.ACL_FULL_CONTROL)), S3Acl.PRIVATE.grants("owner",
        "owner"));
  }

  @Test
  void bucketOwnerCannedAclsGrantTheBucketsOwnerOnlyWhenItIsNotTheObjectsOwner() {
    assertEquals(List.of(S3AclGrants.user("alt", AclPermission.ACL_FULL_CONTROL), S3AclGrants.user("owner",
        AclPermission.ACL_READ)), S3Acl.canned(CannedAcl.ACL_BUCKET_OWNER_READ).grants("alt", "owner"));
    assertEquals(1, S3Acl.canned(CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL).grants("owner", "owner").size());
  }
}
