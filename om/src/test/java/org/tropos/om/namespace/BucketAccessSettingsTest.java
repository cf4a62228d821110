package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ObjectOwnership;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.PublicAccessBlock;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.db.BucketRow;

/** A bucket's ACL, policy, Block Public Access and Object Ownership, checked against each other as S3 does. */
class BucketAccessSettingsTest {
  private static final BucketRow BUCKET = BucketRow.newBuilder().setName("b").setOwner("erin").build();
  private static final String PUBLIC_POLICY = "{\"Statement\": {\"Effect\": \"Allow\", \"Principal\": \"*\","
      + " \"Action\": \"s3:GetObject\", \"Resource\": \"arn:aws:s3:::b/*\"}}";

  private static BucketRow apply(BucketRow row, SetBucketPropertiesRequest.Builder request) throws OmException {
    BucketRow.Builder changed = row.toBuilder();
    BucketAccessSettings.apply(changed, request.build());
    return changed.build();
  }

  private static OmResult refusal(BucketRow row, SetBucketPropertiesRequest.Builder request) {
    return assertThrows(OmException.class, () -> apply(row, request)).result();
  }

  @Test
  void blockPublicAccessRefusesPublicAclsAndPoliciesOnlyWhileSet() throws Exception {
    BucketRow blocking = apply(BUCKET, SetBucketPropertiesRequest.newBuilder().setSetPublicAccessBlock(true)
        .setPublicAccessBlock(PublicAccessBlock.newBuilder().setBlockPublicAcls(true).setBlockPublicPolicy(true)));
    assertEquals(OmResult.PERMISSION_DENIED, refusal(blocking, SetBucketPropertiesRequest.newBuilder()
        .setAcl(CannedAcl.ACL_AUTHENTICATED_READ)));
    assertEquals(OmResult.PERMISSION_DENIED, refusal(blocking, SetBucketPropertiesRequest.newBuilder()
        .setSetPolicy(true).setPolicy(PUBLIC_POLICY)));
    assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, () -> BucketAccessSettings
        .checkObjectAcl(blocking, CannedAcl.ACL_PUBLIC_READ, AclGrants.getDefaultInstance())).result());
    BucketAccessSettings.checkObjectAcl(blocking, CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL,
        AclGrants.getDefaultInstance());
    assertEquals(CannedAcl.ACL_PRIVATE, apply(blocking, SetBucketPropertiesRequest.newBuilder()
        .setAcl(CannedAcl.ACL_PRIVATE)).getAcl());

    BucketRow open = apply(blocking, SetBucketPropertiesRequest.newBuilder().setSetPublicAccessBlock(true));
    assertEquals(false, open.hasPublicAccessBlock());
    assertEquals(PUBLIC_POLICY, apply(open, SetBucketPropertiesRequest.newBuilder().setSetPolicy(true)
        .setPolicy(PUBLIC_POLICY)).getPolicy());
    assertEquals(OmResult.MALFORMED_POLICY, refusal(open, SetBucketPropertiesRequest.newBuilder().setSetPolicy(true)
        .setPolicy("{\"Statement\": []}")));
  }

  @Test
  void ownerEnforcedOwnershipNeedsABucketAclGrantingItsOwnerAlone() throws Exception {
    BucketRow shown = BUCKET.toBuilder().setAcl(CannedAcl.ACL_PUBLIC_READ).build();
    assertEquals(OmResult.INVALID_BUCKET_ACL_WITH_OWNERSHIP, refusal(shown, SetBucketPropertiesRequest.newBuilder()
        .setObjectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)));
    BucketRow enforced = apply(BUCKET, SetBucketPropertiesRequest.newBuilder()
        .setObjectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED));
    assertEquals(OmResult.INVALID_BUCKET_ACL_WITH_OWNERSHIP, refusal(enforced, SetBucketPropertiesRequest
        .newBuilder().setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE)));
    assertEquals(ObjectOwnership.OWNERSHIP_UNSET, apply(enforced, SetBucketPropertiesRequest.newBuilder()
        .setObjectOwnership(ObjectOwnership.OWNERSHIP_UNSET)).getObjectOwnership());
  }

  @Test
  void objectOwnershipDecidesWhoOwnsAWrite() {
    BucketRow enforced = BUCKET.toBuilder().setObjectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED).build();
    BucketRow preferred = BUCKET.toBuilder().setObjectOwnership(ObjectOwnership.BUCKET_OWNER_PREFERRED).build();
    assertEquals("erin", ObjectOwners.of(enforced, "frank", CannedAcl.ACL_PRIVATE));
    assertEquals("erin", ObjectOwners.of(preferred, "frank", CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL));
    assertEquals("frank", ObjectOwners.of(preferred, "frank", CannedAcl.ACL_PRIVATE));
    assertEquals("frank", ObjectOwners.of(BUCKET, "frank", CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL));
    assertEquals("erin", ObjectOwners.of(BUCKET, "", CannedAcl.ACL_PRIVATE));
  }
}
