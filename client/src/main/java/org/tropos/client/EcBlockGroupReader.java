package org.tropos.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.ec.ErasureCoder;
import org.tropos.common.ec.StripeLayout;
import org.tropos.common.io.ByteSink;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.ContainerInfo;

/**
 * Reads a range of an erasure-coded block group (ARCHITECTURE.md, "Erasure coding"): each cell straight from its
 * data index, every byte verified against its checksums. Once an index fails (gone, refusing, corrupt) it is left
 * alone for the rest of the read, and the stripes it holds cells of are read whole from the other indexes, data
 * first, then parity, their missing cells rebuilt (a degraded read: still {@code data} cells read per stripe).
 *
 * <p>Not thread-safe: one read at a time.
 */
final class EcBlockGroupReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EcBlockGroupReader.class);
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  private final BlockStreamReader reader;
  private final BlockLocation group;
  private final EcReplication config;
  private final StripeLayout layout;
  /** Per unit (replica index - 1), the datanode SCM lists for it, or null if none. */
  private final DatanodeDetails[] holders;
  private final boolean[] failed;
  /** The datanodes failed before, shared by the reads of one stream: theirs are not tried again. */
  private final Set<UUID> failedHolders;
  private ErasureCoder coder;
  /** The last stripe read whole: its data cells, and which stripe it is (-1: none). */
  private ByteBuffer[] stripeCells;
  private long stripe = -1;

  EcBlockGroupReader(BlockStreamReader reader, BlockLocation group, ContainerInfo container,
      Set<UUID> failedHolders) {
    this.reader = reader;
    this.failedHolders = failedHolders;
    this.group = group;
    this.config = EcReplication.fromProto(container.getEc());
    this.layout = config.layout();
    this.holders = new DatanodeDetails[config.units()];
    this.failed = new boolean[config.units()];
    for (int i = 0; i < container.getReplicasCount() && i < container.getReplicaIndexesCount(); i++) {
      int unit = container.getReplicaIndexes(i) - 1;
      if (unit >= 0 && unit < holders.length && holders[unit] == null) {
        holders[unit] = container.getReplicas(i);
        failed[unit] = failedHolders.contains(Uuids.fromProto(holders[unit].getUuid()));
      }
    }
  }

  /** Hands {@code length} verified bytes of the group from {@code offset} to {@code sink}, in order. */
  void read(long offset, long length, ByteSink sink) throws IOException {
    if (offset < 0 || length < 0 || offset + length > group.length()) {
      throw new IOException("range " + offset + "+" + length + " is outside block group " + group);
    }
    long at = offset;
    long end = offset + length;
    while (at < end) {
      StripeLayout.CellPosition cell = layout.locate(at);
      int n = (int) Math.min(end - at, layout.cellLength(cell.stripe(), cell.unit(), group.length()) - cell.inCell());
      if (cell.stripe() == stripe) {
        sink.accept(stripeCells[cell.unit()].duplicate().position(cell.inCell()).limit(cell.inCell() + n));
        at += n;
      } else if (readable(cell.unit())) {
        long[] delivered = {0};
        try {
          reader.readIndex(holders[cell.unit()], indexBlock(cell.unit()), cell.unitOffset(), n,
              sink.counted(bytes -> delivered[0] += bytes));
        } catch (IOException e) {
          fail(cell.unit(), e);
        }
        at += delivered[0];
      } else {
        stripeCells = readStripe(cell.stripe());
        stripe = cell.stripe();
      }
    }
  }

  /**
   * The data cells of stripe {@code s}: read from the data indexes that serve them, those that do not rebuilt from
   * the parity indexes.
   */
  private ByteBuffer[] readStripe(long s) throws IOException {
    ByteBuffer[] cells = new ByteBuffer[config.units()];
    List<Integer> missing = new ArrayList<>();
    int present = 0;
    for (int unit = 0; unit < config.units() && (unit < config.data() || present < config.data()); unit++) {
      int length = layout.cellLength(s, unit, group.length());
      if (length == 0) {
        cells[unit] = EMPTY;
        present++;
      } else if (readable(unit) && (cells[unit] = readCell(unit, s, length)) != null) {
        present++;
      } else if (unit < config.data()) {
        missing.add(unit);
      }
    }
    if (present < config.data()) {
      throw new IOException("block group " + group + ": stripe " + s + " cannot be read, only " + present + " of the "
          + config.data() + " cells " + config + " needs could be (indexes failed or unknown: " + unavailable() + ")");
    }
    if (!missing.isEmpty()) {
      rebuild(s, cells, missing);
    }
    ByteBuffer[] data = new ByteBuffer[config.data()];
    System.arraycopy(cells, 0, data, 0, data.length);
    return data;
  }

  private void rebuild(long s, ByteBuffer[] cells, List<Integer> missing) {
    int first = layout.cellLength(s, 0, group.length());
    int[] units = missing.stream().mapToInt(Integer::intValue).toArray();
    ByteBuffer[] rebuilt = new ByteBuffer[units.length];
    for (int k = 0; k < units.length; k++) {
      rebuilt[k] = ByteBuffer.allocate(first);
    }
    if (coder == null) {
      coder = new ErasureCoder(config);
    }
    coder.decode(cells, units, rebuilt, first);
    for (int k = 0; k < units.length; k++) {
      cells[units[k]] = rebuilt[k].limit(layout.cellLength(s, units[k], group.length()));
    }
  }

  /** Stripe {@code s}'s cell of {@code unit}, or null if its index failed (it is then left alone). */
  private ByteBuffer readCell(int unit, long s, int length) {
    ByteBuffer cell = ByteBuffer.allocate(length);
    try {
      reader.readIndex(holders[unit], indexBlock(unit), s * config.cellSize(), length, cell::put);
      return cell.flip();
    } catch (IOException e) {
      fail(unit, e);
      return null;
    }
  }

  private boolean readable(int unit) {
    return holders[unit] != null && !failed[unit];
  }

  private void fail(int unit, IOException e) {
    failed[unit] = true;
    if (!failedHolders.add(Uuids.fromProto(holders[unit].getUuid()))) {
      return;
    }
    LOG.warn("Index {} of block group {} on {} failed ({}): its cells are rebuilt from the other indexes", unit + 1,
        group, holders[unit].getHostName(), e.getMessage());
  }

  private List<Integer> unavailable() {
    List<Integer> indexes = new ArrayList<>();
    for (int unit = 0; unit < config.units(); unit++) {
      if (!readable(unit)) {
        indexes.add(unit + 1);
      }
    }
    return indexes;
  }

  /** What index {@code unit} holds of the group: a block of the group's id, as long as the unit's share. */
  private BlockLocation indexBlock(int unit) {
    return new BlockLocation(group.block(), layout.unitLength(unit, group.length()), group.token());
  }

  @Override
  public void close() {
    if (coder != null) {
      coder.close();
    }
  }
}
