package org.tropos.om.scm;

import java.util.List;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.ScmBlockServiceGrpc;

/**
 * The OM's calls to SCM's block service: new blocks for keys being written, and where containers are for
 * lookups. SCM's failures become OM results the client understands (retriable SCM_UNAVAILABLE, or the reason).
 */
public final class ScmBlocks implements AutoCloseable {
  private final ScmChannel scm;

  public ScmBlocks(HostPort address) {
    this.scm = new ScmChannel(address);
  }

  public AllocateBlockResponse allocate(long size, ReplicationFactor factor, ExcludeList exclude)
      throws OmException {
    try {
      return scm.call(() -> stub().allocateBlock(AllocateBlockRequest.newBuilder().setSize(size).setFactor(factor)
          .setExclude(exclude).build()));
    } catch (ScmException e) {
      throw translate("allocate a block", e);
    }
  }

  public List<ContainerInfo> containers(List<Long> ids, String clientHost) throws OmException {
    try {
      return scm.call(() -> stub().getContainers(GetContainersRequest.newBuilder().addAllContainerIds(ids)
          .setClientHost(clientHost).build()).getContainersList());
    } catch (ScmException e) {
      throw translate("locate containers", e);
    }
  }

  private static OmException translate(String what, ScmException e) {
    OmResult result = e.isRetriable() ? OmResult.SCM_UNAVAILABLE : OmResult.INTERNAL_ERROR;
    return new OmException(result, "SCM could not " + what + ": " + e.getMessage());
  }

  private ScmBlockServiceGrpc.ScmBlockServiceBlockingStub stub() {
    return scm.stub(ScmBlockServiceGrpc::newBlockingStub);
  }

  @Override
  public void close() {
    scm.close();
  }
}
