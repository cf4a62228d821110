package org.tropos.om.scm;

import java.util.List;
import java.util.Set;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.KeyBlocks;

/**
 * The OM's calls to SCM's block service: new blocks for keys being written, where containers are for lookups,
 * and blocks of deleted keys. SCM's failures become OM results the client understands (retriable
 * SCM_UNAVAILABLE, or the reason).
 */
public final class ScmBlocks implements AutoCloseable {
  private final ScmBlockClient scm;

  public ScmBlocks(HostPort address) {
    this.scm = new ScmBlockClient(address);
  }

  public AllocateBlockResponse allocate(long size, ReplicationFactor factor, ExcludeList exclude)
      throws OmException {
    try {
      return scm.allocateBlock(size, factor, exclude);
    } catch (ScmException e) {
      throw translate("allocate a block", e);
    }
  }

  public List<ContainerInfo> containers(List<Long> ids, String clientHost) throws OmException {
    try {
      return scm.containers(ids, clientHost);
    } catch (ScmException e) {
      throw translate("locate containers", e);
    }
  }

  /** Hands deleted keys' blocks to SCM; returns the key ids it recorded durably. */
  public Set<String> deleteKeyBlocks(List<KeyBlocks> keys) throws OmException {
    try {
      return scm.deleteKeyBlocks(keys);
    } catch (ScmException e) {
      throw translate("take deleted blocks", e);
    }
  }

  private static OmException translate(String what, ScmException e) {
    OmResult result = e.isRetriable() ? OmResult.SCM_UNAVAILABLE : OmResult.INTERNAL_ERROR;
    return new OmException(result, "SCM could not " + what + ": " + e.getMessage());
  }

  @Override
  public void close() {
    scm.close();
  }
}
