package org.tropos.datanode.container;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.EcReplicationConfig;

/**
 * Writes and closes the replicas of erasure-coded containers (ARCHITECTURE.md, "Erasure coding"): no Raft group,
 * so the client writes each replica index straight to its datanode, and SCM closes each member's replica itself.
 * The first write to a container creates the replica of the index it names; a write naming another index or config
 * is refused, so one replica never mixes indexes. A chunk is checked against its checksums and written; one that
 * commits (a writer commits every stripe) extends the committed block to its end, its checksums after the
 * committed ones: the commit forces the block file and records the block with its group's length so far.
 *
 * <p>Thread-safe: the store is.
 */
public final class EcReplicas {
  private final ContainerStore store;

  public EcReplicas(ContainerStore store) {
    this.store = store;
  }

  /** Carries out {@code write}; {@code data} holds a WriteChunk's bytes (empty for a PutBlock alone). */
  public void write(EcWrite write, ByteBuffer data) throws DatanodeException {
    BlockId block = write.hasChunk() ? write.getChunk().getBlockId() : write.getPutBlock().getBlockId();
    replicaFor(write, validated(write, block), block.getContainerId());
    if (!store.acceptsWrites(block.getContainerId())) {
      throw new DatanodeException(DatanodeResult.CONTAINER_NOT_OPEN, "container " + block.getContainerId()
          + " is " + store.state(block.getContainerId()) + ": it takes no more writes");
    }
    if (write.hasChunk()) {
      WriteChunk chunk = write.getChunk();
      if (data.remaining() != chunk.getLength()) {
        throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "a chunk of " + chunk.getLength()
            + " bytes came with " + data.remaining());
      }
      store.checkRoom(block.getContainerId());
      ChecksumData committed = committedBefore(chunk);
      store.writeChunk(block, chunk.getOffset(), data, chunk.getChecksums());
      if (chunk.hasCommit()) {
        commit(chunk.getCommit().toBuilder().setLength(chunk.getOffset() + chunk.getLength())
            .setChecksums(Checksums.concat(committed, chunk.getChecksums())).build());
      }
    } else {
      commit(write.getPutBlock());
    }
  }

  /**
   * Closes this node's replica of an erasure-coded container (SCM asks every member): an OPEN or CLOSING one is
   * CLOSED, any other left as it is.
   */
  public void close(long containerId) throws DatanodeException {
    ContainerState state = store.state(containerId);
    if (state == ContainerState.CONTAINER_OPEN || state == ContainerState.CONTAINER_CLOSING) {
      store.setState(containerId, ContainerState.CONTAINER_CLOSED);
    }
  }

  /**
   * Closes this node's replica of the container, first making an empty one of index {@code index} if it holds none:
   * no stripe of the container can have been acknowledged without this member, so an empty replica is all its
   * index holds.
   */
  public void closeEmpty(long containerId, EcReplicationConfig ec, int index) throws DatanodeException {
    if (store.descriptor(containerId).isEmpty()) {
      store.create(ContainerDescriptor.newBuilder().setContainerId(containerId).setEc(ec).setReplicaIndex(index));
    }
    if (holdsEc(containerId)) {
      close(containerId);
    }
  }

  /** Whether this node's replica of the container is erasure-coded. */
  public boolean holdsEc(long containerId) {
    return store.descriptor(containerId).map(ContainerDescriptor::hasEc).orElse(false);
  }

  /**
   * The checksums of the block's committed bytes, which a chunk that commits must follow: it starts where they end,
   * its checksums cut the same way.
   */
  private ChecksumData committedBefore(WriteChunk chunk) throws DatanodeException {
    if (!chunk.hasCommit()) {
      return ChecksumData.getDefaultInstance();
    }
    BlockData before = committedRecord(chunk.getBlockId());
    long length = before == null ? 0 : before.getLength();
    if (chunk.getOffset() != length) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + ContainerStore.name(chunk.getBlockId())
          + " has " + length + " bytes committed; a chunk that commits must start there, not at "
          + chunk.getOffset());
    }
    if (before != null && length > 0
        && before.getChecksums().getBytesPerChecksum() != chunk.getChecksums().getBytesPerChecksum()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + ContainerStore.name(chunk.getBlockId())
          + " has checksums of " + before.getChecksums().getBytesPerChecksum() + "-byte pieces, this chunk of "
          + chunk.getChecksums().getBytesPerChecksum());
    }
    return before == null ? ChecksumData.getDefaultInstance() : before.getChecksums();
  }

  private BlockData committedRecord(BlockId block) throws DatanodeException {
    try {
      return store.getBlock(block);
    } catch (DatanodeException e) {
      if (e.result() == DatanodeResult.NO_SUCH_BLOCK) {
        return null;
      }
      throw e;
    }
  }

  private void commit(PutBlock put) throws DatanodeException {
    if (put.getGroupLength() < put.getLength()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + ContainerStore.name(put.getBlockId())
          + ": an index of " + put.getLength() + " bytes in a group of " + put.getGroupLength());
    }
    store.sync(put.getBlockId());
    store.putBlock(BlockData.newBuilder().setBlockId(put.getBlockId()).setLength(put.getLength())
        .setChecksums(put.getChecksums()).setGroupLength(put.getGroupLength()).build());
  }

  /** The replica the write goes to: this node's, which must hold the write's index, or a new one of it. */
  private void replicaFor(EcWrite write, EcReplication config, long containerId) throws DatanodeException {
    Optional<ContainerDescriptor> held = store.descriptor(containerId);
    if (held.isEmpty()) {
      store.create(ContainerDescriptor.newBuilder().setContainerId(containerId).setEc(write.getEc())
          .setReplicaIndex(write.getReplicaIndex()));
      return;
    }
    ContainerDescriptor d = held.get();
    if (!d.getEc().equals(write.getEc()) || d.getReplicaIndex() != write.getReplicaIndex()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "container " + containerId + " here holds "
          + (d.hasEc() ? "index " + d.getReplicaIndex() + " of " + EcReplication.fromProto(d.getEc())
              : "a replicated replica") + ", not index " + write.getReplicaIndex() + " of " + config);
    }
  }

  /** The write's config, once the write is found well-formed. */
  private static EcReplication validated(EcWrite write, BlockId block) throws DatanodeException {
    EcReplication config;
    try {
      config = EcReplication.fromProto(write.getEc());
    } catch (IllegalArgumentException e) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, e.getMessage());
    }
    if (write.getReplicaIndex() < 1 || write.getReplicaIndex() > config.units()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, config + " has replica indexes 1 to "
          + config.units() + ", not " + write.getReplicaIndex());
    }
    if (write.hasChunk() == write.hasPutBlock()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "an erasure-coded write is a chunk or a PutBlock");
    }
    if (block.getContainerId() <= 0 || block.getLocalId() <= 0) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "no block named (container and local ids start"
          + " at 1)");
    }
    return config;
  }
}
