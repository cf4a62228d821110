package org.tropos.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.stream.IntStream;
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
 * Reads a range of an erasure-coded block group (ARCHITECTURE.md, "Erasure coding"), a piece of a few stripes at a
 * time. The indexes holding a piece are read at once, each its one contiguous run, every byte verified against its
 * checksums, and the piece handed on cell by cell in the group's order. Once an index fails (gone, refusing,
 * corrupt) it is left alone for the rest of the stream's reads, and the pieces it holds cells of are read whole
 * from {@code data} other indexes (data first, then parity), its cells rebuilt (a degraded read: still {@code data}
 * cells read per stripe, in parallel), into buffers the stream reuses ({@link DecodeBuffers}), the piece's bytes
 * copied out.
 *
 * <p>Not thread-safe: one read at a time; the runs of a piece are read on {@code runs}.
 */
final class EcBlockGroupReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EcBlockGroupReader.class);
  /** Bytes of the group a piece holds at most: what one read holds in memory at once. */
  private static final long PIECE_BYTES = 8 << 20;
  /** Whole stripes' bytes per unit from which decoding is split over two threads. */
  private static final int PARALLEL_DECODE_BYTES = 256 << 10;

  private final BlockStreamReader reader;
  private final BlockLocation group;
  private final EcReplication config;
  private final StripeLayout layout;
  private final Executor runs;
  /** Per unit (replica index - 1), the datanode SCM lists for it, or null if none. */
  private final DatanodeDetails[] holders;
  private final boolean[] failed;
  /** The datanodes failed before, shared by the reads of one stream: theirs are not tried again. */
  private final Set<UUID> failedHolders;
  private final DecodeBuffers decodeBuffers;
  private final ErasureCoder[] coders = new ErasureCoder[2];

  EcBlockGroupReader(BlockStreamReader reader, BlockLocation group, ContainerInfo container,
      Set<UUID> failedHolders, Executor runs, DecodeBuffers decodeBuffers) {
    this.reader = reader;
    this.decodeBuffers = decodeBuffers;
    this.failedHolders = failedHolders;
    this.group = group;
    this.runs = runs;
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
    long stripesPerPiece = Math.max(1, PIECE_BYTES / config.stripeSize());
    long end = offset + length;
    for (long at = offset; at < end; ) {
      long pieceEnd = Math.min(end, (at / config.stripeSize() + stripesPerPiece) * config.stripeSize());
      readPiece(at, pieceEnd, sink);
      at = pieceEnd;
    }
  }

  /** One cell's part of the range: {@code length} bytes at {@code unitOffset} of {@code unit}'s block. */
  private record Segment(long stripe, int unit, long unitOffset, int inCell, int length) {
  }

  private void readPiece(long from, long to, ByteSink sink) throws IOException {
    List<Segment> segments = new ArrayList<>();
    for (long at = from; at < to; ) {
      StripeLayout.CellPosition cell = layout.locate(at);
      int n = (int) Math.min(to - at, layout.cellLength(cell.stripe(), cell.unit(), group.length()) - cell.inCell());
      segments.add(new Segment(cell.stripe(), cell.unit(), cell.unitOffset(), cell.inCell(), n));
      at += n;
    }
    if (segments.stream().allMatch(s -> readable(s.unit()))) {
      long[] start = new long[config.units()];
      long[] stop = new long[config.units()];
      Arrays.fill(start, Long.MAX_VALUE);
      for (Segment s : segments) {
        start[s.unit()] = Math.min(start[s.unit()], s.unitOffset());
        stop[s.unit()] = Math.max(stop[s.unit()], s.unitOffset() + s.length());
      }
      ByteBuffer[] runs = fetch(start, stop, null);
      if (runs != null) {
        for (Segment s : segments) {
          int at = (int) (s.unitOffset() - start[s.unit()]);
          sink.accept(runs[s.unit()].duplicate().position(at).limit(at + s.length()));
        }
        return;
      }
    }
    long first = segments.get(0).stripe();
    long last = segments.get(segments.size() - 1).stripe();
    int runBytes = (int) ((last + 1 - first) * config.cellSize());
    ByteBuffer decoding = decodeBuffers.take(config.units() * runBytes, coder(0).wantsDirect());
    ByteBuffer[][] stripes = readStripes(first, last + 1, decoding, runBytes);
    ByteBuffer bytes = ByteBuffer.allocate((int) (to - from));
    for (Segment s : segments) {
      bytes.put(stripes[(int) (s.stripe() - first)][s.unit()].duplicate().position(s.inCell())
          .limit(s.inCell() + s.length()));
    }
    // Only once read and decoded (an interrupted read may leave index reads writing into it).
    decodeBuffers.give(decoding);
    sink.accept(bytes.flip());
  }

  /**
   * The data cells of stripes {@code [from, to)}, per stripe: each index's run of them read at once from {@code data}
   * indexes (data first), the cells of the others rebuilt; unit {@code u}'s run at {@code u * runBytes} of
   * {@code decoding}.
   */
  private ByteBuffer[][] readStripes(long from, long to, ByteBuffer decoding, int runBytes) throws IOException {
    while (true) {
      long[] start = new long[config.units()];
      long[] stop = new long[config.units()];
      Arrays.fill(start, Long.MAX_VALUE);
      int chosen = 0;
      for (int unit = 0; unit < config.units() && chosen < config.data(); unit++) {
        long runEnd = Math.min(to * config.cellSize(), layout.unitLength(unit, group.length()));
        if (readable(unit) || runEnd <= from * config.cellSize()) {
          start[unit] = from * config.cellSize();
          stop[unit] = Math.max(start[unit], runEnd);
          chosen++;
        }
      }
      if (chosen < config.data()) {
        throw new IOException("block group " + group + ": stripes " + from + " to " + (to - 1) + " cannot be read,"
            + " only " + chosen + " of the " + config.data() + " indexes " + config + " needs could be (indexes"
            + " failed or unknown: " + unavailable() + ")");
      }
      ByteBuffer[] units = new ByteBuffer[config.units()];
      for (int unit = 0; unit < units.length; unit++) {
        units[unit] = decoding.slice(unit * runBytes, runBytes);
      }
      ByteBuffer[] read = fetch(start, stop, units);
      if (read != null) {
        return rebuild(read, units, from, to);
      }
    }
  }

  /**
   * Each stripe's data cells from the runs read, those of data units not read (null in {@code read}) rebuilt into
   * their run of {@code unitRuns}. The whole stripes are decoded at once over the runs, as a rebuilt byte depends
   * only on the same byte of the other cells, in two halves on two threads when large (decoding is most of a
   * degraded read's work); a partial last stripe on its own.
   */
  private ByteBuffer[][] rebuild(ByteBuffer[] read, ByteBuffer[] unitRuns, long from, long to) throws IOException {
    int cell = config.cellSize();
    int[] missing = IntStream.range(0, config.data()).filter(unit -> read[unit] == null).toArray();
    ByteBuffer[] units = read.clone();
    for (int unit : missing) {
      units[unit] = unitRuns[unit];
    }
    if (missing.length > 0) {
      long whole = Math.max(from, Math.min(to, group.length() / config.stripeSize()));
      int wholeBytes = (int) ((whole - from) * cell);
      // ISA-L decodes a piece in about a millisecond: a second thread (of the pool reading the next piece) would
      // only make this piece wait behind those reads. The pure Java coder is slow enough to gain from one.
      if (wholeBytes >= PARALLEL_DECODE_BYTES && !coder(0).wantsDirect()) {
        int half = wholeBytes / 2 / 4096 * 4096;
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> decode(1, read, units, missing, half,
            wholeBytes - half), runs);
        decode(0, read, units, missing, 0, half);
        await(second);
      } else {
        decode(0, read, units, missing, 0, wholeBytes);
      }
      if (whole < to) {
        decode(0, read, units, missing, wholeBytes, layout.cellLength(whole, 0, group.length()));
      }
    }
    ByteBuffer[][] stripes = new ByteBuffer[(int) (to - from)][config.data()];
    for (long s = from; s < to; s++) {
      for (int unit = 0; unit < config.data(); unit++) {
        int length = layout.cellLength(s, unit, group.length());
        stripes[(int) (s - from)][unit] = length == 0 ? ByteBuffer.allocate(0)
            : units[unit].slice((int) ((s - from) * cell), length);
      }
    }
    return stripes;
  }

  /**
   * Rebuilds bytes {@code [offset, offset + length)} of the missing units' runs in {@code units} from the runs read,
   * with coder {@code which}; a run read that ends sooner (a partial stripe's shorter cell) counts as zero-padded.
   */
  private void decode(int which, ByteBuffer[] read, ByteBuffer[] units, int[] missing, int offset, int length) {
    if (length == 0) {
      return;
    }
    ByteBuffer[] cells = new ByteBuffer[config.units()];
    for (int unit = 0; unit < config.units(); unit++) {
      cells[unit] = read[unit] == null ? null
          : read[unit].slice(offset, Math.min(length, read[unit].limit() - offset));
    }
    ByteBuffer[] outputs = Arrays.stream(missing).mapToObj(unit -> units[unit].slice(offset, length))
        .toArray(ByteBuffer[]::new);
    coder(which).decode(cells, missing, outputs, length);
  }

  private void await(CompletableFuture<Void> decoding) throws IOException {
    try {
      decoding.get();
    } catch (ExecutionException e) {
      throw new IOException("block group " + group + " could not be decoded: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted decoding block group " + group);
    }
  }

  /**
   * Reads {@code [start, stop)} of each unit with a run (start not MAX_VALUE; an empty run reads nothing) at once,
   * into {@code into}'s buffer for the unit, or new heap buffers when {@code into} is null; null if one failed, which
   * is marked so the caller reads others instead.
   */
  private ByteBuffer[] fetch(long[] start, long[] stop, ByteBuffer[] into) throws IOException {
    ByteBuffer[] read = new ByteBuffer[config.units()];
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    List<Integer> units = new ArrayList<>();
    for (int unit = 0; unit < config.units(); unit++) {
      if (start[unit] == Long.MAX_VALUE) {
        continue;
      }
      int length = (int) (stop[unit] - start[unit]);
      read[unit] = into == null ? ByteBuffer.allocate(length) : into[unit].slice(0, length);
      if (length > 0) {
        int u = unit;
        units.add(unit);
        pending.add(CompletableFuture.runAsync(() -> readRun(u, start[u], read[u]), runs));
      }
    }
    boolean complete = true;
    for (int i = 0; i < pending.size(); i++) {
      try {
        pending.get(i).get();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() instanceof UncheckedIOException unchecked ? unchecked.getCause() : e.getCause();
        fail(units.get(i), cause instanceof IOException io ? io : new IOException(cause));
        complete = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted reading block group " + group);
      }
    }
    for (ByteBuffer buffer : read) {
      if (buffer != null) {
        buffer.flip();
      }
    }
    return complete ? read : null;
  }

  private void readRun(int unit, long offset, ByteBuffer into) {
    try {
      reader.readIndex(holders[unit], indexBlock(unit), offset, into.remaining(), into::put);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The coder of one of the two decoding threads (a coder caches its matrix: one per thread). */
  private ErasureCoder coder(int which) {
    if (coders[which] == null) {
      coders[which] = new ErasureCoder(config);
    }
    return coders[which];
  }

  private boolean readable(int unit) {
    return holders[unit] != null && !failed[unit];
  }

  private void fail(int unit, IOException cause) {
    failed[unit] = true;
    if (!failedHolders.add(Uuids.fromProto(holders[unit].getUuid()))) {
      return;
    }
    LOG.warn("Index {} of block group {} on {} failed ({}): its cells are rebuilt from the other indexes", unit + 1,
        group, holders[unit].getHostName(), cause.getMessage());
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
    for (ErasureCoder coder : coders) {
      if (coder != null) {
        coder.close();
      }
    }
  }
}
