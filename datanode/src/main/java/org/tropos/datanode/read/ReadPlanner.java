package org.tropos.datanode.read;

import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.BlockId;

/** Resolves a read to a file range and its checksums (the container store; may touch RocksDB, so it blocks). */
@FunctionalInterface
public interface ReadPlanner {
  ReadPlan planRead(BlockId block, long offset, long length) throws DatanodeException;

  /** A closed container's state, bcsid and block records, for a datanode copying it. */
  default ContainerListing listContainer(long containerId) throws DatanodeException {
    throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "this read server does not list containers");
  }
}
