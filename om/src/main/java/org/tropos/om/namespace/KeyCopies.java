package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * Server-side copies: the copy is a new key that references the source's blocks (counted in {@link BlockRefs}),
 * committed like any written key, so a copy costs one transaction whatever the size.
 */
final class KeyCopies {
  private KeyCopies() {
  }

  static KeyInfo copy(Txn txn, BucketRow from, BucketRow to, CopyKeyRequest request) throws OmException {
    AclGrantChecks.check(request.getGrants());
    FileRow source = Keys.find(txn, from, request.getKey(), request.getVersionId(), false).row();
    Keys.checkExpected(source, request.getExpectedObjectId(), request.getKey());
    boolean flat = to.getLayout() == BucketLayout.OBJECT_STORE;
    if (flat) {
      Names.checkKey(request.getToKey());
    }
    OpenKeyRow.Builder open = OpenKeyRow.newBuilder();
    if (source.hasEncryption()) {
      open.setEncryption(source.getEncryption()); // the same data, under the same data key
    }
    if (source.hasEc()) {
      open.setEc(source.getEc()); // the same block groups
    }
    open.setOpenId(txn.newObjectId()).setBucketId(to.getObjectId())
        .setPath(flat ? request.getToKey() : Names.join(Names.split(request.getToKey())))
        .setFactor(source.getFactor()).setOwner(request.getOwner().isEmpty() ? to.getOwner() : request.getOwner())
        .setCreationTimeMs(txn.nowMillis())
        .putAllMetadata(request.getReplaceMetadata() ? request.getMetadataMap() : source.getMetadataMap())
        .setCreateParents(true).setAcl(request.getAcl()).setGrants(request.getGrants());
    CommitKeyRequest blocks = CommitKeyRequest.newBuilder().setSize(source.getSize())
        .addAllBlocks(source.getBlocksList()).build();
    KeyInfo copied = flat ? FlatKeys.commit(txn, to, open.build(), blocks)
        : FsoChanges.commit(txn, to, open.build(), blocks);
    BlockRefs.share(txn, source.getBlocksList());
    return copied;
  }
}
