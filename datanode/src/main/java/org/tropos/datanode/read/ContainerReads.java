package org.tropos.datanode.read;

import java.nio.ByteBuffer;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.EcReplicas;
import org.tropos.datanode.container.VolumeMeters;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.hdds.BlockId;

/**
 * What the block port serves from the container store: block ranges, closed containers' listings, and writes to
 * erasure-coded replicas ({@link EcReplicas}).
 */
public final class ContainerReads implements BlockPortService {
  private final ContainerStore store;
  private final VolumeMeters meters;
  private final EcReplicas ecReplicas;

  public ContainerReads(ContainerStore store) {
    this(store, VolumeMeters.NONE);
  }

  /** @param meters counts the bytes each read plan covers on its volume */
  public ContainerReads(ContainerStore store, VolumeMeters meters) {
    this.store = store;
    this.meters = meters;
    this.ecReplicas = new EcReplicas(store);
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

  @Override
  public void writeEc(EcWrite write, ByteBuffer data) throws DatanodeException {
    ecReplicas.write(write, data);
  }
}
