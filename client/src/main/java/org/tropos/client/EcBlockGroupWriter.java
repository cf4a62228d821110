package org.tropos.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.ec.ErasureCoder;
import org.tropos.common.ec.StripeLayout;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.PipelineMember;

/**
 * Writes a stream of bytes as erasure-coded block groups (ARCHITECTURE.md, "Erasure coding"). The bytes are cut
 * into stripes of {@code data} cells; each stripe's parity cells are computed ({@link ErasureCoder}) and its cells
 * written at once, one to each replica index, each write committing that index through the cell
 * ({@link EcUnitWriter}). A stripe counts once every index acknowledged it. Should an index fail, the group ends
 * with the stripes every index acknowledged, and the stripe is written again to a new group away from the failed
 * datanode (Ozone's approach). A group is full once each index holds a block; {@link #finish} ends it too, its last
 * stripe partial: cells fill the data indexes from the first, parity cells as long as the first cell.
 *
 * <p>Not thread-safe: one writer; the indexes of a stripe are written in parallel on {@code unitWrites}.
 */
final class EcBlockGroupWriter implements BlockWriter {
  private static final Logger LOG = LoggerFactory.getLogger(EcBlockGroupWriter.class);
  /** The stripe buffer starts this small and doubles up to a stripe: a small object does not take a stripe's MBs. */
  private static final int FIRST_BUFFER = 64 * 1024;

  /** Where the writer gets its next group: {@code size} bytes of data at most, away from {@code exclude}. */
  @FunctionalInterface
  interface GroupAllocator {
    AllocateBlockResponse allocate(long size, ExcludeList exclude) throws IOException;
  }

  private final GroupAllocator allocator;
  private final EcReplication config;
  private final StripeLayout layout;
  private final ErasureCoder coder;
  /** Bytes of data a group holds: a block of whole cells on each data index. */
  private final long groupCapacity;
  private final int bytesPerChecksum;
  private final int maxRetries;
  private final Duration timeout;
  private final TransportSecurity transport;
  private final Executor unitWrites;
  private final List<BlockLocation> written = new ArrayList<>();
  private final ExcludeList.Builder exclude = ExcludeList.newBuilder();
  private ByteBuffer stripe = ByteBuffer.allocate(0);
  private final ByteBuffer[] parity;
  private Group group;
  private int failures;

  EcBlockGroupWriter(GroupAllocator allocator, EcReplication config, BlockWriteSettings settings, Duration timeout,
      TransportSecurity transport, Executor unitWrites) {
    this.allocator = allocator;
    this.config = config;
    this.layout = config.layout();
    this.coder = new ErasureCoder(config);
    long cellsPerBlock = Math.max(1, settings.blockSize() / config.cellSize());
    this.groupCapacity = cellsPerBlock * config.stripeSize();
    // Every cell but a group's last is a whole number of checksum pieces: commits extend the block piece-aligned.
    this.bytesPerChecksum = gcd(settings.bytesPerChecksum(), config.cellSize());
    this.maxRetries = settings.maxRetries();
    this.timeout = timeout;
    this.transport = transport;
    this.unitWrites = unitWrites;
    this.parity = new ByteBuffer[config.parity()];
  }

  @Override
  public void write(ByteBuffer data) throws IOException {
    while (data.hasRemaining()) {
      if (!stripe.hasRemaining()) {
        if (stripe.capacity() == config.stripeSize()) {
          writeStripe();
        } else {
          stripe = grown(stripe);
        }
      }
      int n = Math.min(data.remaining(), stripe.remaining());
      stripe.put(data.slice(data.position(), n));
      data.position(data.position() + n);
    }
    if (!stripe.hasRemaining() && stripe.capacity() == config.stripeSize()) {
      writeStripe();
    }
  }

  @Override
  public List<BlockLocation> finish() throws IOException {
    if (stripe.position() > 0) {
      writeStripe();
    }
    endGroup();
    return List.copyOf(written);
  }

  /** Writes the buffered stripe to the current group, or to new ones while indexes fail. */
  private void writeStripe() throws IOException {
    int length = stripe.position();
    while (true) {
      if (group == null) {
        group = new Group(allocator.allocate(groupCapacity, exclude.build()));
      }
      Map<DatanodeDetails, Throwable> failed = group.write(length);
      if (failed.isEmpty()) {
        break;
      }
      failures++;
      exclude.addContainers(group.allocation.getBlockId().getContainerId());
      failed.forEach((node, cause) -> {
        if (!(cause instanceof DatanodeException e && e.result() == DatanodeResult.CONTAINER_NOT_OPEN)) {
          exclude.addDatanodes(node.getUuid());
        }
      });
      LOG.warn("Block group {} failed on {} after {} bytes; the group ends there and the stripe goes to another",
          group.location(), failed.keySet().stream().map(DatanodeDetails::getHostName).toList(), group.acknowledged,
          failed.values().iterator().next());
      endGroup();
      if (failures > maxRetries) {
        throw new IOException("an " + config + " write failed " + failures + " times; last: "
            + failed.values().iterator().next(), failed.values().iterator().next());
      }
    }
    stripe.clear();
    if (group.acknowledged >= groupCapacity) {
      endGroup();
    }
  }

  private void endGroup() {
    if (group != null) {
      BlockLocation location = group.end();
      if (location != null) {
        written.add(location);
      }
      group = null;
    }
  }

  private ByteBuffer grown(ByteBuffer full) {
    int capacity = (int) Math.min(config.stripeSize(), Math.max(FIRST_BUFFER, 2L * full.capacity()));
    return newBuffer(capacity).put(full.flip());
  }

  private ByteBuffer newBuffer(int capacity) {
    return coder.wantsDirect() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  @Override
  public void close() {
    if (group != null) {
      group.closeConnections();
      group = null;
    }
    coder.close();
  }

  /** One block group being written: its indexes, and the bytes of data every one acknowledged. */
  private final class Group {
    final AllocateBlockResponse allocation;
    final EcUnitWriter[] units;
    long acknowledged;

    Group(AllocateBlockResponse allocation) throws IOException {
      this.allocation = allocation;
      List<PipelineMember> members = allocation.getPipeline().getMembersList();
      if (members.size() != config.units() || !allocation.getPipeline().getEc().equals(config.toProto())) {
        throw new IOException("asked for an " + config + " block group, got " + members.size()
            + " datanodes for " + allocation.getPipeline().getEc());
      }
      units = new EcUnitWriter[config.units()];
      for (int i = 0; i < units.length; i++) {
        units[i] = new EcUnitWriter(members.get(i).getDatanode(), config.toProto(), i + 1,
            allocation.getBlockId(), allocation.getToken(), bytesPerChecksum, timeout, transport);
      }
    }

    /** Writes the buffered stripe of {@code length} bytes; the datanodes that failed it (none: acknowledged). */
    Map<DatanodeDetails, Throwable> write(int length) throws IOException {
      ByteBuffer[] cells = new ByteBuffer[config.units()];
      for (int u = 0; u < config.data(); u++) {
        int cellLength = layout.cellLength(0, u, length);
        // An empty cell of a partial stripe may lie past a small object's buffer.
        cells[u] = cellLength == 0 ? stripe.slice(0, 0) : stripe.slice(u * config.cellSize(), cellLength);
      }
      int first = cells[0].remaining();
      for (int k = 0; k < config.parity(); k++) {
        if (parity[k] == null || parity[k].capacity() < first) {
          parity[k] = newBuffer(first);
        }
        cells[config.data() + k] = parity[k].clear().limit(first).slice();
      }
      ByteBuffer[] dataCells = new ByteBuffer[config.data()];
      System.arraycopy(cells, 0, dataCells, 0, dataCells.length);
      ByteBuffer[] parityCells = new ByteBuffer[config.parity()];
      System.arraycopy(cells, config.data(), parityCells, 0, parityCells.length);
      coder.encode(dataCells, parityCells);
      long after = acknowledged + length;
      Map<EcUnitWriter, CompletableFuture<Void>> sent = new LinkedHashMap<>();
      for (int i = 0; i < units.length; i++) {
        if (cells[i].hasRemaining()) {
          EcUnitWriter unit = units[i];
          ByteBuffer cell = cells[i];
          sent.put(unit, CompletableFuture.runAsync(() -> writeCell(unit, cell, after), unitWrites));
        }
      }
      Map<DatanodeDetails, Throwable> failed = new LinkedHashMap<>();
      for (Map.Entry<EcUnitWriter, CompletableFuture<Void>> task : sent.entrySet()) {
        try {
          task.getValue().get();
        } catch (ExecutionException e) {
          failed.put(task.getKey().node(), e.getCause() instanceof UnitFailure f ? f.getCause() : e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted writing block group " + location());
        }
      }
      if (failed.isEmpty()) {
        acknowledged = after;
      }
      return failed;
    }

    private void writeCell(EcUnitWriter unit, ByteBuffer cell, long groupLength) {
      try {
        unit.write(cell, groupLength);
      } catch (IOException | DatanodeException e) {
        throw new UnitFailure(e);
      }
    }

    /**
     * The group as a location (null if it holds nothing), once the indexes its bytes never reached hold an empty
     * block: their replicas then exist, and close with the others. Such an index holds no byte, so one that cannot
     * be committed loses nothing (reconstruction makes it again).
     */
    BlockLocation end() {
      if (acknowledged > 0) {
        for (EcUnitWriter unit : units) {
          if (unit.committed() == 0) {
            try {
              unit.commitEmpty(acknowledged);
            } catch (IOException | DatanodeException e) {
              LOG.warn("Empty index of block group {} on {} not committed: {}", location(),
                  unit.node().getHostName(), e.toString());
            }
          }
        }
      }
      closeConnections();
      return acknowledged == 0 ? null : new BlockLocation(allocation.getBlockId(), acknowledged,
          allocation.getToken());
    }

    BlockLocation location() {
      return new BlockLocation(allocation.getBlockId(), acknowledged, allocation.getToken());
    }

    void closeConnections() {
      for (EcUnitWriter unit : units) {
        unit.close();
      }
    }
  }

  /** A checked failure of one index's write, carried out of its task. */
  private static final class UnitFailure extends RuntimeException {
    UnitFailure(Exception cause) {
      super(cause);
    }
  }
}
