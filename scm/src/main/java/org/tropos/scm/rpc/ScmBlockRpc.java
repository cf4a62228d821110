package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.AllocateBlocksRequest;
import org.tropos.proto.scm.AllocateBlocksResponse;
import org.tropos.proto.scm.DeleteKeyBlocksRequest;
import org.tropos.proto.scm.DeleteKeyBlocksResponse;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.GetContainersResponse;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.KeyBlocksResult;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.ReportBadReplicaRequest;
import org.tropos.proto.scm.ReportBadReplicaResponse;
import org.tropos.proto.scm.ScmBlockServiceGrpc;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.block.DeletedBlockLog;
import org.tropos.scm.container.ContainerManager;

/** SCM's block service: block allocation, container locations, bad-replica reports, deleted keys' blocks. */
public final class ScmBlockRpc extends ScmBlockServiceGrpc.ScmBlockServiceImplBase {
  private static final int MAX_BLOCKS_PER_CALL = 1000;
  private final ContainerManager containers;
  private final DeletedBlockLog deletedBlocks;

  public ScmBlockRpc(ContainerManager containers, DeletedBlockLog deletedBlocks) {
    this.containers = containers;
    this.deletedBlocks = deletedBlocks;
  }

  @Override
  public void allocateBlock(AllocateBlockRequest request, StreamObserver<AllocateBlockResponse> observer) {
    ScmCalls.respond("AllocateBlock", observer, () -> toResponse(allocate(request)));
  }

  private ContainerManager.Allocation allocate(AllocateBlockRequest request) throws ScmException {
    return request.hasEc()
        ? containers.allocateEcBlock(request.getSize(), ecOf(request), request.getExclude())
        : containers.allocateBlock(request.getSize(), factorOf(request), request.getExclude());
  }

  private static EcReplication ecOf(AllocateBlockRequest request) throws ScmException {
    try {
      return EcReplication.fromProto(request.getEc());
    } catch (IllegalArgumentException e) {
      throw ScmCalls.invalid(e.getMessage());
    }
  }

  private static ReplicationFactor factorOf(AllocateBlockRequest request) {
    return request.getFactor() == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED
        ? ReplicationFactor.THREE : request.getFactor();
  }

  private static AllocateBlockResponse toResponse(ContainerManager.Allocation a) {
    PipelineInfo pipeline = ScmAdminRpc.toInfo(a.pipeline());
    if (a.ec() != null) {
      pipeline = pipeline.toBuilder().setEc(a.ec().toProto()).build();
    }
    return AllocateBlockResponse.newBuilder().setBlockId(a.block()).setPipeline(pipeline).build();
  }

  @Override
  public void allocateBlocks(AllocateBlocksRequest request, StreamObserver<AllocateBlocksResponse> observer) {
    ScmCalls.respond("AllocateBlocks", observer, () -> {
      if (request.getCount() < 1 || request.getCount() > MAX_BLOCKS_PER_CALL) {
        throw ScmCalls.invalid("AllocateBlocks takes 1 to " + MAX_BLOCKS_PER_CALL + " blocks, not "
            + request.getCount());
      }
      AllocateBlockRequest each = request.getEach();
      AllocateBlocksResponse.Builder response = AllocateBlocksResponse.newBuilder();
      if (each.hasEc()) {
        // One group: a writer takes a group at a time, and each group's container may be opened for it.
        return response.addBlocks(toResponse(allocate(each))).build();
      }
      for (ContainerManager.Allocation a : containers.allocateBlocks(request.getCount(), each.getSize(),
          factorOf(each), each.getExclude())) {
        response.addBlocks(toResponse(a));
      }
      return response.build();
    });
  }

  @Override
  public void getContainers(GetContainersRequest request, StreamObserver<GetContainersResponse> observer) {
    ScmCalls.respond("GetContainers", observer, () -> GetContainersResponse.newBuilder()
        .addAllContainers(containers.containers(request.getContainerIdsList(), request.getClientHost())).build());
  }

  @Override
  public void reportBadReplica(ReportBadReplicaRequest request, StreamObserver<ReportBadReplicaResponse> observer) {
    ScmCalls.respond("ReportBadReplica", observer, () -> {
      if (!request.hasBlockId() || !request.hasDatanode()) {
        throw ScmCalls.invalid("ReportBadReplica needs the block and the datanode");
      }
      containers.reportBadReplica(request.getBlockId(), Uuids.fromProto(request.getDatanode()), request.getReason());
      return ReportBadReplicaResponse.getDefaultInstance();
    });
  }

  /** Records every key's blocks in one atomic write; each key is then accepted. */
  @Override
  public void deleteKeyBlocks(DeleteKeyBlocksRequest request, StreamObserver<DeleteKeyBlocksResponse> observer) {
    ScmCalls.respond("DeleteKeyBlocks", observer, () -> {
      for (KeyBlocks key : request.getKeysList()) {
        validate(key);
      }
      deletedBlocks.append(request.getKeysList());
      DeleteKeyBlocksResponse.Builder response = DeleteKeyBlocksResponse.newBuilder();
      for (KeyBlocks key : request.getKeysList()) {
        response.addResults(KeyBlocksResult.newBuilder().setKeyId(key.getKeyId()).setAccepted(true)
            .setResult(ScmResult.OK));
      }
      return response.build();
    });
  }

  private static void validate(KeyBlocks key) throws ScmException {
    if (key.getKeyId().isEmpty()) {
      throw ScmCalls.invalid("DeleteKeyBlocks: a key has no key_id");
    }
    for (BlockId block : key.getBlocksList()) {
      if (block.getContainerId() <= 0 || block.getLocalId() <= 0) {
        throw ScmCalls.invalid("DeleteKeyBlocks: key " + key.getKeyId() + " names block " + block.getContainerId()
            + "/" + block.getLocalId() + "; container and local ids start at 1");
      }
    }
  }
}
