package org.tropos.om.rpc;

import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.OmException;
import org.tropos.om.acl.Resource;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.ChangeAclRequest;
import org.tropos.proto.om.ChangeAclResponse;
import org.tropos.proto.om.GetAclRequest;
import org.tropos.proto.om.GetAclResponse;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.SetKeyAclResponse;

/**
 * The calls that read or change who may do what: the ACLs of a volume, bucket, key or prefix, and a key's S3 ACL.
 * They are apart because each needs the READ_ACL or WRITE_ACL right, not the rights on the data, and it is checked
 * on the object the ACL belongs to, which the namespace finds first.
 */
final class AclCalls {
  private final Namespace namespace;
  private final AccessChecks access;

  AclCalls(Namespace namespace, AccessChecks access) {
    this.namespace = namespace;
    this.access = access;
  }

  GetAclResponse get(GetAclRequest r) throws OmException {
    Resource on = namespace.aclTarget(r.getObject());
    access.require(on, AclRight.RIGHT_READ_ACL, on.key() == null ? S3Actions.GET_BUCKET_ACL
        : S3Actions.GET_OBJECT_ACL);
    return GetAclResponse.newBuilder().setOwner(on.owner()).addAllAcls(
        r.getObject().getType() == AclObjectType.OBJECT_PREFIX ? on.prefixAcls() : on.acls()).build();
  }

  ChangeAclResponse change(ChangeAclRequest r) throws OmException {
    Resource on = namespace.aclTarget(r.getObject());
    access.require(on, AclRight.RIGHT_WRITE_ACL, on.key() == null ? S3Actions.PUT_BUCKET_ACL
        : S3Actions.PUT_OBJECT_ACL);
    return ChangeAclResponse.newBuilder().addAllAcls(namespace.changeAcl(r.getObject(), r.getChange(),
        r.getAclsList())).build();
  }

  SetKeyAclResponse setKeyAcl(SetKeyAclRequest r) throws OmException {
    access.key(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId(), AclRight.RIGHT_WRITE_ACL,
        S3Actions.PUT_OBJECT_ACL);
    return SetKeyAclResponse.newBuilder().setKey(namespace.setKeyAcl(r)).build();
  }
}
