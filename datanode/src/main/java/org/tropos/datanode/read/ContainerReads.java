package org.tropos.datanode.read;

import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.VolumeMeters;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.hdds.BlockId;

/** What the read server serves from the container store: block ranges, and closed containers' listings. */
public final class ContainerReads implements ReadPlanner {
  private final ContainerStore store;
  private final VolumeMeters meters;

  public ContainerReads(ContainerStore store) {
    this(store, VolumeMeters.NONE);
  }

  /** @param meters counts the bytes each read plan covers on its volume */
  public ContainerReads(ContainerStore store, VolumeMeters meters) {
    this.store = store;
    this.meters = meters;
  }

  @Override
  public ReadPlan planRead(BlockId block, long offset, long length) throws DatanodeException {
    ReadPlan plan = store.planRead(block, offset, length);
    meters.read(plan.file(), plan.length());
    return plan;
  }

  @Override
  public ContainerListing listContainer(long containerId) throws DatanodeException {
    return store.listing(containerId);
  }
}
