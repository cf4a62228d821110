package org.tropos.datanode.container;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.ec.ErasureCoder;
import org.tropos.common.ec.StripeLayout;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Threads;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ChecksumType;
import org.tropos.proto.hdds.ContainerState;

/**
 * Rebuilds a lost index of a closed erasure-coded container on this datanode (SCM's reconstruction). The replicas
 * of the other indexes list their blocks; each block's cells are read from {@code data} of them through their read
 * servers, every byte verified, a run of stripes at a time (one request per source), the lost index's cells
 * decoded and written to a staging copy with new checksums, and the copy adopted CLOSED only once whole
 * ({@link ContainerStore#adopt}). A source that fails is left for the rest of the rebuild and another read instead;
 * with fewer than {@code data} left the rebuild fails and its copy is removed.
 *
 * <p>Thread-safe: each rebuild has its own connections, coder and staging directory.
 */
public final class EcReconstructor {
  private static final Logger LOG = LoggerFactory.getLogger(EcReconstructor.class);
  /** Bytes read from all sources at once: a run of stripes whose cells are held in memory together. */
  private static final int RUN_BYTES = 16 << 20;

  private final String nodeName;
  private final ContainerStore store;
  private final Duration timeout;
  private final BlockAccess access;
  private final TransportSecurity transport;

  public EcReconstructor(String nodeName, ContainerStore store, Duration timeout, BlockAccess access,
      TransportSecurity transport) {
    this.nodeName = nodeName;
    this.store = store;
    this.timeout = timeout;
    this.access = access;
    this.transport = transport;
  }

  /**
   * Makes this datanode hold index {@code index} of the container, rebuilt from {@code sources} (index to read
   * server); nothing to do if it holds a replica of the container already.
   */
  public void reconstruct(long containerId, EcReplication config, int index, Map<Integer, HostPort> sources)
      throws DatanodeException {
    if (store.descriptor(containerId).isPresent()) {
      return;
    }
    ContainerCopies.Staging copy = store.stage(containerId);
    try (Rebuild rebuild = new Rebuild(containerId, config, index, sources, copy)) {
      List<BlockData> blocks = rebuild.run();
      store.adopt(copy, ContainerDescriptor.newBuilder().setLayoutVersion(Container.LAYOUT_VERSION)
          .setContainerId(containerId).setState(ContainerState.CONTAINER_CLOSED).setEc(config.toProto())
          .setReplicaIndex(index).build(), blocks);
      LOG.info("{}: index {} of container {} ({}) rebuilt from indexes {}", nodeName, index, containerId, config,
          sources.keySet());
    } catch (IOException | DatanodeException | RuntimeException e) {
      copy.discard();
      throw e instanceof DatanodeException d ? d : new DatanodeException(DatanodeResult.IO_ERROR, "rebuilding index "
          + index + " of container " + containerId + " failed: " + e.getMessage(), e);
    }
  }

  /** One rebuild: its sources' connections and listings, and the coder. */
  private final class Rebuild implements AutoCloseable {
    private final long containerId;
    private final EcReplication config;
    private final StripeLayout layout;
    private final int lost;
    private final ContainerCopies.Staging copy;
    private final BlockToken token;
    private final ErasureCoder coder;
    /** Per unit (index - 1): its source's connection, null if it has none or it failed. */
    private final BlockReadClient[] clients;
    /** Per unit: its source's block records, by local id. */
    private final List<Map<Long, BlockData>> listings = new ArrayList<>();
    /** Where the sources' runs are read at once, one thread per source read. */
    private final ExecutorService sources;
    /** Where the next run is read while the current one is decoded. */
    private final ExecutorService prefetch;
    /** Stripes per run, and a unit's bytes of one run. */
    private final long runStripes;
    private final int runBytes;
    /** Two sets of per-unit run buffers, used in turn: one is read into while the other is decoded. */
    private final ByteBuffer[][] buffers;
    /** The lost index's cells of one run. */
    private final ByteBuffer output;

    Rebuild(long containerId, EcReplication config, int index, Map<Integer, HostPort> sources,
        ContainerCopies.Staging copy) throws IOException {
      this.containerId = containerId;
      this.config = config;
      this.layout = config.layout();
      this.lost = index - 1;
      this.copy = copy;
      this.token = access.forContainer(containerId, AccessMode.ACCESS_READ);
      this.coder = new ErasureCoder(config);
      this.clients = new BlockReadClient[config.units()];
      this.sources = Threads.boundedPoolWithBackpressure(nodeName + "-ec-rebuild-read", config.data(),
          config.units());
      this.prefetch = Threads.boundedPool(nodeName + "-ec-rebuild-next", 1, 1);
      this.runStripes = Math.max(1, RUN_BYTES / ((long) config.data() * config.cellSize()));
      this.runBytes = (int) (runStripes * config.cellSize());
      this.buffers = new ByteBuffer[2][config.units()];
      this.output = newBuffer(runBytes);
      for (int unit = 0; unit < config.units(); unit++) {
        listings.add(Map.of());
        HostPort source = sources.get(unit + 1);
        if (source != null && unit != lost) {
          listings.set(unit, open(unit, source));
        }
      }
    }

    /** The source's listing of the container, its connection kept; empty (and no connection) if it fails. */
    private Map<Long, BlockData> open(int unit, HostPort source) {
      try {
        BlockReadClient client = new BlockReadClient(source, timeout, transport);
        clients[unit] = client;
        ContainerListing listing = client.listContainer(containerId, token);
        if (!listing.getEc().equals(config.toProto()) || listing.getReplicaIndex() != unit + 1) {
          throw new DatanodeException(DatanodeResult.INVALID_REQUEST, source + " holds index "
              + listing.getReplicaIndex() + " of " + listing.getEc() + ", not index " + (unit + 1));
        }
        Map<Long, BlockData> blocks = new LinkedHashMap<>();
        listing.getBlocksList().forEach(b -> blocks.put(b.getBlockId().getLocalId(), b));
        return blocks;
      } catch (IOException | DatanodeException e) {
        fail(unit, e);
        return Map.of();
      }
    }

    /** Rebuilds every block some source lists; the lost index's records. */
    List<BlockData> run() throws IOException, DatanodeException {
      Map<Long, Long> groupLengths = new LinkedHashMap<>();
      for (Map<Long, BlockData> listing : listings) {
        listing.forEach((localId, b) -> groupLengths.merge(localId, b.getGroupLength(), Math::max));
      }
      List<BlockData> rebuilt = new ArrayList<>();
      for (Map.Entry<Long, Long> block : groupLengths.entrySet()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedIOException("the rebuild of container " + containerId + " was stopped");
        }
        rebuilt.add(rebuildBlock(block.getKey(), block.getValue()));
      }
      return rebuilt;
    }

    private BlockData rebuildBlock(long localId, long groupLength) throws IOException, DatanodeException {
      int bytesPerChecksum = listings.stream().filter(l -> l.containsKey(localId)).findFirst().orElseThrow()
          .get(localId).getChecksums().getBytesPerChecksum();
      ChecksumData checksums = ChecksumData.getDefaultInstance();
      long stripes = layout.stripes(groupLength);
      BlockId id = BlockId.newBuilder().setContainerId(containerId)
          .setLocalId(localId).build();
      try (FileChannel out = FileChannel.open(copy.blockFile(localId), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        // The next run is read while this one is decoded, checksummed and written.
        CompletableFuture<ByteBuffer[]> next = readRunsAsync(id, groupLength, 0, Math.min(stripes, runStripes), 0);
        for (long first = 0, run = 0; first < stripes; first += runStripes, run++) {
          ByteBuffer[] runs = joinRuns(next);
          long to = Math.min(stripes, first + runStripes);
          next = to < stripes ? readRunsAsync(id, groupLength, to, Math.min(stripes, to + runStripes), run + 1) : null;
          ByteBuffer cells = rebuildRun(runs, groupLength, first, to);
          checksums = Checksums.concat(checksums, Checksums.compute(cells, bytesPerChecksum));
          while (cells.hasRemaining()) {
            out.write(cells);
          }
        }
        out.force(true);
      }
      long length = layout.unitLength(lost, groupLength);
      if (checksums.getBytesPerChecksum() == 0) {
        checksums = ChecksumData.newBuilder().setType(ChecksumType.CRC32C)
            .setBytesPerChecksum(bytesPerChecksum).build();
      }
      return BlockData.newBuilder().setBlockId(id).setLength(length).setChecksums(checksums)
          .setGroupLength(groupLength).build();
    }

    /** The lost index's cells of stripes {@code [from, to)}, back to back, decoded from the runs read. */
    private ByteBuffer rebuildRun(ByteBuffer[] runs, long groupLength, long from, long to) {
      ByteBuffer rebuilt = output.clear();
      for (long s = from; s < to; s++) {
        rebuildCell(runs, groupLength, s, from, rebuilt);
      }
      return rebuilt.flip();
    }

    private CompletableFuture<ByteBuffer[]> readRunsAsync(BlockId id, long groupLength, long from, long to,
        long run) {
      return CompletableFuture.supplyAsync(() -> {
        try {
          return readRuns(id, groupLength, from, to, buffers[(int) (run % 2)]);
        } catch (DatanodeException e) {
          throw new CompletionException(e);
        }
      }, prefetch);
    }

    private ByteBuffer[] joinRuns(CompletableFuture<ByteBuffer[]> runs) throws IOException, DatanodeException {
      try {
        return runs.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof DatanodeException d) {
          throw d;
        }
        throw new IOException(e.getCause());
      }
    }

    /**
     * The runs of stripes {@code [from, to)} of {@code data} sources (null for the others), read at once into
     * {@code into} (one buffer per unit, made as needed); a source that fails is left for the rest of the rebuild
     * and the next one read instead.
     */
    private ByteBuffer[] readRuns(BlockId id, long groupLength, long from, long to, ByteBuffer[] into)
        throws DatanodeException {
      while (true) {
        ByteBuffer[] runs = new ByteBuffer[config.units()];
        Map<Integer, CompletableFuture<ByteBuffer>> reads = new LinkedHashMap<>();
        int chosen = 0;
        for (int unit = 0; unit < config.units() && chosen < config.data(); unit++) {
          long start = from * config.cellSize();
          long end = Math.min(to * config.cellSize(), layout.unitLength(unit, groupLength));
          if (unit == lost || (end > start && clients[unit] == null)) {
            continue;
          }
          chosen++;
          if (end <= start) {
            runs[unit] = ByteBuffer.allocate(0);
          } else {
            if (into[unit] == null) {
              into[unit] = newBuffer(runBytes);
            }
            int u = unit;
            ByteBuffer target = into[unit].clear().limit((int) (end - start));
            reads.put(unit, CompletableFuture.supplyAsync(() -> read(u, id, start, target), sources));
          }
        }
        if (chosen < config.data()) {
          throw new DatanodeException(DatanodeResult.IO_ERROR, "block " + containerId + "/" + id.getLocalId()
              + ": only " + chosen + " of the " + config.data() + " indexes " + config + " needs could be read");
        }
        boolean complete = true;
        for (Map.Entry<Integer, CompletableFuture<ByteBuffer>> read : reads.entrySet()) {
          runs[read.getKey()] = read.getValue().join();
          complete &= runs[read.getKey()] != null;
        }
        if (complete) {
          return runs;
        }
      }
    }

    /** Decodes stripe {@code s}'s cell of the lost index from the runs read, straight into {@code rebuilt}. */
    private void rebuildCell(ByteBuffer[] runs, long groupLength, long s, long from, ByteBuffer rebuilt) {
      int first = layout.cellLength(s, 0, groupLength);
      int at = (int) ((s - from) * config.cellSize());
      ByteBuffer[] cells = new ByteBuffer[config.units()];
      for (int unit = 0; unit < config.units(); unit++) {
        if (runs[unit] != null) {
          int length = layout.cellLength(s, unit, groupLength);
          cells[unit] = length == 0 ? ByteBuffer.allocate(0) : runs[unit].slice(at, length);
        }
      }
      // A partial stripe's lost cell may be shorter than the first: the decode writes the first's length, of which
      // the position moves on by the cell's own (the run's buffer has room for whole cells).
      coder.decode(cells, new int[] {lost}, new ByteBuffer[] {rebuilt.slice(rebuilt.position(), first)}, first);
      rebuilt.position(rebuilt.position() + layout.cellLength(s, lost, groupLength));
    }

    /** A buffer of the kind the coder works on without copying. */
    private ByteBuffer newBuffer(int capacity) {
      return coder.wantsDirect() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
    }

    /** {@code run}'s remaining bytes, verified, of a source's block from {@code offset}; null if the source failed. */
    private ByteBuffer read(int unit, BlockId id, long offset, ByteBuffer run) {
      try {
        clients[unit].read(id, offset, run.remaining(), token, run::put);
        return run.flip();
      } catch (IOException | DatanodeException e) {
        fail(unit, e);
        return null;
      }
    }

    private void fail(int unit, Exception e) {
      LOG.warn("{}: index {} of container {} cannot be read for the rebuild ({}); another is read instead",
          nodeName, unit + 1, containerId, e.getMessage());
      if (clients[unit] != null) {
        try {
          clients[unit].close();
        } catch (IOException closing) {
          // It failed already: nothing is read from it again.
        }
        clients[unit] = null;
      }
    }

    @Override
    public void close() {
      Threads.shutdown(prefetch, Duration.ofSeconds(5));
      Threads.shutdown(sources, Duration.ofSeconds(5));
      for (int unit = 0; unit < clients.length; unit++) {
        if (clients[unit] != null) {
          try {
            clients[unit].close();
          } catch (IOException e) {
            // Done reading: nothing pending on it.
          }
        }
      }
      coder.close();
    }
  }
}
