package org.tropos.om.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.KeyEncryptions;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.scm.ScmBlocks;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AllocateKeyBlockRequest;
import org.tropos.proto.om.AllocateKeyBlockResponse;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CommitKeyResponse;
import org.tropos.proto.om.LeaseBlocksRequest;
import org.tropos.proto.om.LeaseBlocksResponse;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.om.db.OpenKeyRow;
import org.tropos.proto.scm.ExcludeList;

/**
 * The OM's part of a key's data path: opening a key, handing its writer blocks and taking its commit, and handing a
 * reader the key's blocks. It is apart from the namespace calls because only here does the OM talk to SCM (block
 * allocation, container locations), outside the optimistic transaction, which may run more than once, and hand out
 * what proves a writer or reader to the datanodes (block tokens, sealed open keys, data keys).
 */
final class KeyDataPath {
  private final Namespace namespace;
  private final ScmBlocks scm;
  private final long blockSize;
  private final AccessChecks access;
  private final BlockGrants grants;
  private final OpenKeySeals seals;
  private final DataKeyBroker keyBroker;

  KeyDataPath(Namespace namespace, ScmBlocks scm, long blockSize, AccessChecks access, BlockGrants grants,
      OpenKeySeals seals, DataKeyBroker keyBroker) {
    this.namespace = namespace;
    this.scm = scm;
    this.blockSize = blockSize;
    this.access = access;
    this.grants = grants;
    this.seals = seals;
    this.keyBroker = keyBroker;
  }

  /** Records the open key, then (outside the transaction) allocates its first block when its size is known. */
  OpenKeyResponse openKey(OpenKeyRequest r) throws OmException {
    access.create(r.getVolume(), r.getBucket(), r.getKey());
    OpenKeyRequest owned = r.toBuilder().setOwner(access.owner(r.getOwner())).build();
    OpenKeyRow open = keyBroker.open(r.getEncryption(), encryption -> namespace.openKey(owned.toBuilder()
        .setEncryption(encryption).build()));
    OpenKeyResponse.Builder response = OpenKeyResponse.newBuilder().setOpenId(open.getOpenId())
        .setOpenKey(seals.seal(open));
    if (KeyEncryptions.keepsDataKey(open.getEncryption()) && r.getEncryption().getDataKey().isEmpty()) {
      response.setDataKey(ByteString.copyFrom(keyBroker.dataKey(open.getEncryption())))
          .setEncryption(open.getEncryption().getKind());
    }
    if (open.hasEc()) {
      // The writer stripes the key: its groups come with AllocateKeyBlock.
      response.setEc(open.getEc());
    } else if (r.getSize() > 0) {
      response.setFirstBlock(grants.forWriter(scm.allocate(Math.min(r.getSize(), blockSize), open.getFactor(),
          ExcludeList.getDefaultInstance())));
    }
    return response.build();
  }

  AllocateKeyBlockResponse allocateBlock(AllocateKeyBlockRequest r) throws OmException {
    ByteString row = seals.unseal(r.getOpenKey());
    access.keys(r.getVolume(), r.getBucket(), openKeyOf(row).getPath(), AclRight.RIGHT_CREATE,
        S3Actions.PUT_OBJECT);
    OpenKeyRow open = namespace.openKeyOf(r.getVolume(), r.getBucket(), row);
    if (open.hasEc()) {
      EcReplication config = EcReplication.fromProto(open.getEc());
      long groupSize = blockSize * config.data();
      return AllocateKeyBlockResponse.newBuilder().setBlock(grants.forWriter(scm.allocateGroup(
          r.getSize() > 0 ? Math.min(r.getSize(), groupSize) : groupSize, config, r.getExclude()))).build();
    }
    long size = r.getSize() > 0 ? Math.min(r.getSize(), blockSize) : blockSize;
    return AllocateKeyBlockResponse.newBuilder().setBlock(grants.forWriter(scm.allocate(size, open.getFactor(),
        r.getExclude()))).build();
  }

  LeaseBlocksResponse leaseBlocks(LeaseBlocksRequest r) throws OmException {
    access.requireIdentified("lease blocks");
    return LeaseBlocksResponse.newBuilder().addAllBlocks(grants.forWriter(scm.lease(r.getCount(), r.getSize(),
        r.getFactor()))).build();
  }

  CommitKeyResponse commitKey(CommitKeyRequest r) throws OmException {
    grants.checkCommitted(r.getBlocksList(), r.getBlockTokensList(), AccessChecks.fromGateway());
    CommitKeyRequest owned;
    if (r.hasOpen()) {
      access.create(r.getVolume(), r.getBucket(), r.getOpen().getKey());
      owned = r.toBuilder().setOpen(r.getOpen().toBuilder().setOwner(access.owner(r.getOpen().getOwner()))
          .setEncryption(DataKeyBroker.asCallerMay(r.getOpen().getEncryption()))).build();
    } else {
      // Opened before: the path's bits were checked when it was opened; it must have been opened for the caller.
      ByteString row = seals.unseal(r.getOpenKey());
      OpenKeyRow opened = openKeyOf(row);
      access.keys(r.getVolume(), r.getBucket(), opened.getPath(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT);
      access.requireOpenedFor(opened.getOwner(), r.getVolume(), r.getBucket());
      owned = r.toBuilder().setOpenKey(row).build();
    }
    return CommitKeyResponse.newBuilder().setKey(namespace.commitKey(owned)).build();
  }

  /**
   * The row of an open key a writer carried back (to AllocateBlock, CommitKey), once unsealed: it names the key and
   * the owner it was opened for. A commit whose key is opened with it gets the caller as its owner, or the one an
   * administrator names.
   */
  private static OpenKeyRow openKeyOf(ByteString openKey) throws OmException {
    try {
      return OpenKeyRow.parseFrom(openKey);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INVALID_REQUEST, "unreadable open key: " + e.getMessage());
    }
  }

  /** The key and, from SCM, where its containers' replicas are, nearest to the reader first. */
  LookupKeyResponse lookupKey(LookupKeyRequest r) throws OmException {
    boolean mayRead = access.mayReadKey(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId());
    LookupKeyResponse.Builder response = LookupKeyResponse.newBuilder();
    if (r.getWithBucket()) {
      Namespace.KeyInBucket found = namespace.lookupKeyInBucket(r);
      response.setKey(found.key()).setBucket(found.bucket());
    } else {
      response.setKey(namespace.lookupKey(r));
    }
    if (!mayRead) {
      response.setKey(response.getKey().toBuilder().clearBlocks());
      return response.build();
    }
    List<Long> containers = response.getKey().getBlocksList().stream().map(b -> b.getBlockId().getContainerId())
        .distinct().toList();
    if (!containers.isEmpty()) {
      response.addAllContainers(scm.containers(containers, r.getClientHost()));
    }
    grants.forReader(response);
    if (KeyEncryptions.keepsDataKey(response.getKey().getEncryption())) {
      response.setDataKey(ByteString.copyFrom(keyBroker.dataKey(response.getKey().getEncryption())));
    }
    return response.build();
  }
}
