package org.tropos.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ChecksumType;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.PortName;

/**
 * Writes one replica index of a block group straight to its datanode's block port: a cell per request, each
 * committing the index's block through its end, so what a stripe acknowledged is durable on every index.
 *
 * <p>Not thread-safe: the group's writer hands it one task at a time.
 */
final class EcUnitWriter implements AutoCloseable {
  private final DatanodeDetails node;
  private final EcWrite identity;
  private final BlockId block;
  private final BlockToken token;
  private final int bytesPerChecksum;
  private final Duration timeout;
  private final TransportSecurity transport;
  private BlockReadClient connection;
  private long committed;

  EcUnitWriter(DatanodeDetails node, EcReplicationConfig config, int replicaIndex, BlockId block, BlockToken token,
      int bytesPerChecksum, Duration timeout, TransportSecurity transport) {
    this.node = node;
    this.identity = EcWrite.newBuilder().setEc(config).setReplicaIndex(replicaIndex).build();
    this.block = block;
    this.token = token;
    this.bytesPerChecksum = bytesPerChecksum;
    this.timeout = timeout;
    this.transport = transport;
  }

  DatanodeDetails node() {
    return node;
  }

  /** Bytes committed on this index. */
  long committed() {
    return committed;
  }

  /** Writes {@code cell} after the committed bytes and commits through it; the group then holds {@code groupLength}. */
  void write(ByteBuffer cell, long groupLength) throws IOException, DatanodeException {
    WriteChunk chunk = WriteChunk.newBuilder().setBlockId(block).setOffset(committed).setLength(cell.remaining())
        .setChecksums(Checksums.compute(cell, bytesPerChecksum))
        .setCommit(PutBlock.newBuilder().setBlockId(block).setGroupLength(groupLength)).build();
    connection().writeEc(identity.toBuilder().setChunk(chunk).build(), token, cell);
    committed += chunk.getLength();
  }

  /** Commits the block empty: an index the group's bytes never reached still has its replica and block. */
  void commitEmpty(long groupLength) throws IOException, DatanodeException {
    PutBlock empty = PutBlock.newBuilder().setBlockId(block).setGroupLength(groupLength)
        .setChecksums(ChecksumData.newBuilder().setType(ChecksumType.CRC32C).setBytesPerChecksum(bytesPerChecksum))
        .build();
    connection().writeEc(identity.toBuilder().setPutBlock(empty).build(), token, ByteBuffer.allocate(0));
  }

  private BlockReadClient connection() throws IOException {
    if (connection == null) {
      connection = new BlockReadClient(DatanodeAddresses.of(node, PortName.READ), timeout, transport);
    }
    return connection;
  }

  @Override
  public void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (IOException e) {
        // Nothing was left to send on it: what it wrote is committed or abandoned already.
      }
      connection = null;
    }
  }
}
