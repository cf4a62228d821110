package org.tropos.datanode.read;

import java.nio.ByteBuffer;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.hdds.BlockId;

/**
 * What the block port serves from the container store (which may touch RocksDB and disks, so every call blocks):
 * reads resolved to a file range and its checksums, closed containers' listings, and writes to erasure-coded
 * replicas. A server given only reads refuses the rest.
 */
@FunctionalInterface
public interface BlockPortService {
  ReadPlan planRead(BlockId block, long offset, long length) throws DatanodeException;

  /** A closed container's state, bcsid and block records, for a datanode copying it. */
  default ContainerListing listContainer(long containerId) throws DatanodeException {
    throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "this read server does not list containers");
  }

  /** Carries out a write to an erasure-coded replica; {@code data} holds a chunk's bytes. */
  default void writeEc(EcWrite write, ByteBuffer data) throws DatanodeException {
    throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "this server takes no writes");
  }
}
