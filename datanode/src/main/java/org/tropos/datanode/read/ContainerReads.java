package org.tropos.datanode.read;

import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.hdds.BlockId;

/** What the read server serves from the container store: block ranges, and closed containers' listings. */
public final class ContainerReads implements ReadPlanner {
  private final ContainerStore store;

  public ContainerReads(ContainerStore store) {
    this.store = store;
  }

  @Override
  public ReadPlan planRead(BlockId block, long offset, long length) throws DatanodeException {
    return store.planRead(block, offset, length);
  }

  @Override
  public ContainerListing listContainer(long containerId) throws DatanodeException {
    return store.listing(containerId);
  }
}
