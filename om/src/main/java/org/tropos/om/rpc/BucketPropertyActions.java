package org.tropos.om.rpc;

import java.util.ArrayList;
import java.util.List;
import org.tropos.common.acl.S3Actions;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.SetBucketPropertiesRequest;

/**
 * The S3 actions a SetBucketProperties request is (one per property it changes), and the native right each needs
 * on the bucket: WRITE_ACL for what says who may do what (its ACL, policy, Block Public Access, Object Ownership),
 * WRITE for its other settings.
 */
final class BucketPropertyActions {
  private BucketPropertyActions() {
  }

  static List<String> of(SetBucketPropertiesRequest r) {
    List<String> actions = new ArrayList<>();
    if (r.hasAcl()) {
      actions.add(S3Actions.PUT_BUCKET_ACL);
    }
    if (r.getSetPolicy()) {
      actions.add(r.getPolicy().isEmpty() ? S3Actions.DELETE_BUCKET_POLICY : S3Actions.PUT_BUCKET_POLICY);
    }
    if (r.getSetPublicAccessBlock()) {
      actions.add(S3Actions.PUT_PUBLIC_ACCESS_BLOCK);
    }
    if (r.hasObjectOwnership()) {
      actions.add(S3Actions.PUT_OWNERSHIP_CONTROLS);
    }
    if (r.hasVersioning()) {
      actions.add(S3Actions.PUT_BUCKET_VERSIONING);
    }
    if (r.getSetTags()) {
      actions.add(S3Actions.PUT_BUCKET_TAGGING);
    }
    if (r.getSetCors()) {
      actions.add(S3Actions.PUT_BUCKET_CORS);
    }
    if (r.getSetEncryption()) {
      actions.add(S3Actions.PUT_ENCRYPTION_CONFIGURATION);
    }
    return actions;
  }

  static AclRight right(String action) {
    return action.equals(S3Actions.PUT_BUCKET_VERSIONING) || action.equals(S3Actions.PUT_BUCKET_TAGGING)
        || action.equals(S3Actions.PUT_BUCKET_CORS) || action.equals(S3Actions.PUT_ENCRYPTION_CONFIGURATION)
        ? AclRight.RIGHT_WRITE : AclRight.RIGHT_WRITE_ACL;
  }
}
