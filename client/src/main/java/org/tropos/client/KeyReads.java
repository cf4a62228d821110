package org.tropos.client;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.BlockReadPool;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.KeyBlocks;
import org.tropos.common.util.Threads;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.scm.ContainerInfo;

/**
 * Opens the streams {@link TroposClient} reads looked-up keys through, decrypting when they are encrypted, and
 * fetches their blocks' stored checksums. Reads reuse connections to the datanodes: a new one per block read cost
 * small GETs most of their CPU.
 */
final class KeyReads implements AutoCloseable {
  /** Idle read connections kept per datanode: as many as a gateway's concurrent GETs keep busy on one node. */
  private static final int READ_CONNECTIONS_PER_NODE = 32;
  private static final Duration IDLE_READ_CONNECTION = Duration.ofMinutes(1);

  /** Told of corrupt replicas, and asked for the others when all of a lookup's fail. */
  private final ScmBlockClient scm;
  private final String clientHost;
  private final BlockReadPool reads;
  /** Where the indexes of erasure-coded groups are read at once: a few readers' groups of up to 16 indexes. */
  private final ExecutorService indexReads = Threads.boundedPoolWithBackpressure("tropos-ec-reads", 32, 256);
  /** Where the next piece of an erasure-coded group is fetched while a stream hands one on (it waits on the above). */
  private final ExecutorService readAheads = Threads.boundedPoolWithBackpressure("tropos-ec-read-ahead", 16, 256);

  KeyReads(ScmBlockClient scm, String clientHost, TransportSecurity transport, Clock clock) {
    this.scm = scm;
    this.clientHost = clientHost;
    this.reads = new BlockReadPool(BlockStreamReader.READ_TIMEOUT, transport, READ_CONNECTIONS_PER_NODE,
        IDLE_READ_CONNECTION, clock);
  }

  /** Exactly the version {@code lookup} found, decrypted with the data key the OM handed out if it is encrypted. */
  KeyInputStream read(LookupKeyResponse lookup) {
    if (!lookup.getKey().hasEncryption()) {
      return new BlockKeyInputStream(lookup, streamReader());
    }
    return KeyEncryption.decrypting(lookup, lookup.getDataKey().toByteArray(), streamReader());
  }

  /** A key encrypted with a customer's key (SSE-C), decrypted with {@code customerKey}. */
  KeyInputStream read(LookupKeyResponse lookup, byte[] customerKey) {
    return KeyEncryption.decrypting(lookup, customerKey, streamReader());
  }

  /** The stored checksums covering {@code block} of the looked-up key, from the nearest replica that answers. */
  ReadBlockResponse checksums(LookupKeyResponse lookup, KeyBlock block) throws IOException {
    ContainerInfo container = containerOf(lookup, block);
    if (container.hasEc()) {
      throw new IOException("block group " + block.getBlockId().getContainerId() + ":" + block.getBlockId()
          .getLocalId() + " of " + lookup.getKey().getName() + " is erasure-coded: its indexes' checksums are not"
          + " those of the key's bytes");
    }
    return new BlockStreamReader(scm, clientHost).checksums(new BlockLocation(block.getBlockId(),
        block.getOffset() + block.getLength(), tokenOf(lookup, block)), container.getReplicasList(),
        block.getOffset(), block.getLength());
  }

  /**
   * The stored checksums of each data index of {@code block}, an erasure-coded group the looked-up key holds whole,
   * in unit order, each from the index's holder; a unit holding none of the group gets an empty response.
   */
  List<ReadBlockResponse> dataIndexChecksums(LookupKeyResponse lookup, KeyBlock block) throws IOException {
    ContainerInfo container = containerOf(lookup, block);
    if (!container.hasEc() || block.getOffset() != 0 || KeyBlocks.wholeLength(block) != block.getLength()) {
      throw new IOException("block " + block.getBlockId() + " of " + lookup.getKey().getName() + " is not a whole"
          + " erasure-coded group");
    }
    EcReplication config = EcReplication.fromProto(container.getEc());
    BlockStreamReader reader = new BlockStreamReader(scm, clientHost);
    List<ReadBlockResponse> indexes = new ArrayList<>();
    for (int unit = 0; unit < config.data(); unit++) {
      long length = config.layout().unitLength(unit, block.getLength());
      indexes.add(length == 0 ? ReadBlockResponse.getDefaultInstance() : reader.checksums(new BlockLocation(
          block.getBlockId(), length, tokenOf(lookup, block)), holderOf(container, unit + 1), 0, length));
    }
    return indexes;
  }

  private static ContainerInfo containerOf(LookupKeyResponse lookup, KeyBlock block) {
    return lookup.getContainersList().stream()
        .filter(c -> c.getContainerId() == block.getBlockId().getContainerId()).findFirst()
        .orElse(ContainerInfo.getDefaultInstance());
  }

  private static BlockToken tokenOf(LookupKeyResponse lookup, KeyBlock block) {
    int index = lookup.getKey().getBlocksList().indexOf(block);
    return index >= 0 && index < lookup.getBlockTokensCount() ? lookup.getBlockTokens(index)
        : BlockToken.getDefaultInstance();
  }

  /** The datanode holding replica index {@code index} of an erasure-coded container, as a list of none or one. */
  private static List<DatanodeDetails> holderOf(ContainerInfo container, int index) {
    for (int i = 0; i < container.getReplicasCount() && i < container.getReplicaIndexesCount(); i++) {
      if (container.getReplicaIndexes(i) == index) {
        return List.of(container.getReplicas(i));
      }
    }
    return List.of();
  }

  /** A reader of one stream: its read-ahead and the datanodes it found failing are its own. */
  private BlockStreamReader streamReader() {
    return new BlockStreamReader(scm, clientHost, reads, indexReads, readAheads);
  }

  /** Closes the idle connections; the SCM client is the caller's. */
  @Override
  public void close() {
    Threads.shutdown(readAheads, Duration.ofSeconds(5));
    Threads.shutdown(indexReads, Duration.ofSeconds(5));
    try {
      reads.close();
    } catch (IOException e) {
      // closing idle sockets: nothing was pending on them
    }
  }
}
