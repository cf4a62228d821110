package org.tropos.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.io.ByteSink;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.BlockReadPool;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.LocalBlockSource;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.ContainerInfo;

/**
 * Reads blocks back (ARCHITECTURE.md, "Read path"): replicas are tried nearest first (SCM orders them by
 * topology); only bytes that passed their checksums are handed on, so when a replica fails or serves corrupt
 * data the read resumes at the exact offset on the next one, and a corrupt replica is reported to SCM.
 *
 * <p>Not thread-safe: one reader per stream.
 */
final class BlockStreamReader {
  private static final Logger LOG = LoggerFactory.getLogger(BlockStreamReader.class);
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  /**
   * How long a block no replica has is asked for again: a restarted datanode replays its pipelines' logs within
   * seconds of its pipeline's leader being elected.
   */
  private static final Duration RECORD_REPLAY_WAIT = Duration.ofSeconds(60);
  private static final Duration ASK_AGAIN = Duration.ofMillis(500);

  private final ScmBlockClient scm;
  private final String clientHost;
  private final BlockReadPool connections;
  private final Executor indexReads;
  /**
   * Bytes of an erasure-coded group a key stream fetches at a time, rounded up to whole stripes, the next window
   * fetched while one is handed on.
   */
  private static final int READ_AHEAD_BYTES = 4 << 20;
  private final Clock clock = SystemClock.INSTANCE;
  /**
   * Datanodes an erasure-coded index failed on during this reader's reads: their indexes are rebuilt from the
   * others at once by its later reads (a stream reads a group a window at a time).
   */
  private final Set<UUID> failedIndexHolders = ConcurrentHashMap.newKeySet();
  /** Where this reader's degraded reads of erasure-coded groups decode. */
  private final DecodeBuffers decodeBuffers = new DecodeBuffers();
  /** Fetches the next piece of an erasure-coded group while one is handed on; none when reads run in the caller. */
  private final EcReadAhead readAhead;
  /** Where this reader's last read of an erasure-coded group ended: a read starting there reads on in sequence. */
  private long lastGroupEnd = -1;

  /** A reader for a few reads, reaching datanodes as {@code scm} reaches SCM: each connection closed after its read. */
  public BlockStreamReader(ScmBlockClient scm, String clientHost) {
    this(scm, clientHost, new BlockReadPool(READ_TIMEOUT, scm.security(), 0, Duration.ZERO, SystemClock.INSTANCE));
  }

  /** @param connections the client's connections to read servers, reused across readers (owned by the caller) */
  public BlockStreamReader(ScmBlockClient scm, String clientHost, BlockReadPool connections) {
    this.scm = scm;
    this.clientHost = clientHost;
    this.connections = connections;
    this.indexReads = Runnable::run;
    this.readAhead = null;
  }

  /**
   * @param indexReads where the indexes of an erasure-coded group are read at once (owned by the caller)
   * @param readAheads where a group's next piece is fetched while one is handed on: another pool than
   *     {@code indexReads}, as a fetch waits on index reads (owned by the caller)
   */
  public BlockStreamReader(ScmBlockClient scm, String clientHost, BlockReadPool connections, Executor indexReads,
      Executor readAheads) {
    this.scm = scm;
    this.clientHost = clientHost;
    this.connections = connections;
    this.indexReads = indexReads;
    this.readAhead = new EcReadAhead(readAheads);
  }

  /** Reads every block in order into {@code sink}. */
  public void read(List<BlockLocation> blocks, ByteSink sink) throws IOException {
    for (BlockLocation location : blocks) {
      read(location, sink);
    }
  }

  private void read(BlockLocation location, ByteSink sink) throws IOException {
    ContainerInfo container = containerOf(location);
    if (container.hasEc()) {
      readGroup(location, container, 0, location.length(), sink);
    } else {
      read(location, container.getReplicasList(), 0, location.length(), sink);
    }
  }

  /**
   * Reads {@code length} bytes from {@code offset} of an erasure-coded block group in {@code container}: from its
   * data indexes, cells of any index that fails rebuilt from the others ({@link EcBlockGroupReader}).
   */
  public void readGroup(BlockLocation group, ContainerInfo container, long offset, long length, ByteSink sink)
      throws IOException {
    if (readAhead == null) {
      readPiece(group, container, offset, length, sink);
      return;
    }
    // Windows of whole stripes: a degraded read decodes whole stripes, so a window across a stripe's edge would read
    // and decode that stripe twice.
    long window = windowBytes(EcReplication.fromProto(container.getEc()));
    for (long at = offset; at < offset + length; ) {
      long windowEnd = Math.min((at / window + 1) * window, group.length());
      int n = (int) (Math.min(offset + length, windowEnd) - at);
      List<ByteBuffer> piece = readAhead.take(group.block(), at, n);
      long next = at + n;
      if (piece == null) {
        List<ByteBuffer> read = new ArrayList<>();
        readPiece(group, container, at, n, read::add);
        piece = read;
      }
      // Ahead only while the stream reads on: a lone range read would fetch a window it never uses.
      boolean readsOn = next < offset + length || offset == lastGroupEnd;
      if (readsOn && windowEnd < group.length()) {
        int ahead = (int) (Math.min(windowEnd + window, group.length()) - windowEnd);
        readAhead.start(group.block(), windowEnd, ahead, (from, size, into) -> readPiece(group, container, from,
            size, into));
      }
      for (ByteBuffer bytes : piece) {
        sink.accept(bytes);
      }
      at = next;
    }
    lastGroupEnd = offset + length;
  }

  private static long windowBytes(EcReplication config) {
    return (long) config.stripeSize() * ((READ_AHEAD_BYTES + config.stripeSize() - 1) / config.stripeSize());
  }

  private void readPiece(BlockLocation group, ContainerInfo container, long offset, long length, ByteSink sink)
      throws IOException {
    try (EcBlockGroupReader reader = new EcBlockGroupReader(this, group, container, failedIndexHolders,
        indexReads, decodeBuffers)) {
      reader.read(offset, length, sink);
    }
  }

  /**
   * Reads a range of {@code location} from {@code replica} only, every byte verified: an erasure-coded index, which
   * no other datanode holds the same of. A corrupt replica is reported to SCM.
   */
  void readIndex(DatanodeDetails replica, BlockLocation location, long offset, long length, ByteSink sink)
      throws IOException {
    try {
      readFrom(replica, location, offset, length, new long[] {0}, sink);
    } catch (DatanodeException e) {
      if (e.result() == DatanodeResult.CHECKSUM_MISMATCH) {
        report(location, replica, e.getMessage());
      }
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * Reads {@code length} bytes of a block from {@code offset}, trying {@code replicas} in order (nearest first)
   * and resuming on the next one at the exact offset reached. When all of them fail, the replicas SCM knows now
   * that were not listed are tried too: the list may be older than the latest re-replication (the OM keeps
   * locations for a while). When no replica has the block at all, they are asked again for a while: a datanode
   * that lost power has a committed block's record again only once its pipeline's log is replayed, which it serves
   * reads before.
   */
  public void read(BlockLocation location, List<DatanodeDetails> replicas, long offset, long length,
      ByteSink sink) throws IOException {
    long[] delivered = {0};
    long deadline = clock.monotonicNanos() + RECORD_REPLAY_WAIT.toNanos();
    while (true) {
      boolean[] missing = {true};
      IOException last = readOnce(location, replicas, offset, length, delivered, sink, missing);
      if (last == null) {
        return;
      }
      if (!missing[0] || clock.monotonicNanos() > deadline) {
        throw new IOException("no replica of block " + location + " could be read; last error: "
            + last.getMessage(), last);
      }
      LOG.info("No replica of block {} has it yet; asking them again in {} ms", location, ASK_AGAIN.toMillis());
      try {
        clock.pause(ASK_AGAIN);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for block " + location);
      }
    }
  }

  /**
   * One pass over the listed replicas, then over those SCM adds: null once one served the range, else why not
   * ({@code missing} left true when every replica answered that it has no such block).
   */
  private IOException readOnce(BlockLocation location, List<DatanodeDetails> replicas, long offset, long length,
      long[] delivered, ByteSink sink, boolean[] missing) {
    IOException last = tryEach(replicas, location, offset, length, delivered, sink, missing);
    if (last == null) {
      return null;
    }
    List<DatanodeDetails> others = new ArrayList<>();
    try {
      others.addAll(replicasOf(location));
    } catch (IOException e) {
      last.addSuppressed(e);
    }
    others.removeIf(current -> replicas.stream().anyMatch(listed -> listed.getUuid().equals(current.getUuid())));
    if (!others.isEmpty()) {
      IOException again = tryEach(others, location, offset, length, delivered, sink, missing);
      if (again == null) {
        return null;
      }
      last = again;
    }
    return last;
  }

  /** Tries {@code replicas} in order until one serves the rest of the range; null if one did, else the last error. */
  private IOException tryEach(List<DatanodeDetails> replicas, BlockLocation location, long offset, long length,
      long[] delivered, ByteSink sink, boolean[] missing) {
    IOException last = null;
    for (DatanodeDetails replica : replicas) {
      try {
        readFrom(replica, location, offset, length, delivered, sink);
        return null;
      } catch (DatanodeException e) {
        last = new IOException(e.getMessage(), e);
        missing[0] &= e.result() == DatanodeResult.NO_SUCH_BLOCK;
        if (e.result() == DatanodeResult.CHECKSUM_MISMATCH) {
          report(location, replica, e.getMessage());
        }
      } catch (IOException e) {
        last = e;
        missing[0] = false;
      }
      LOG.warn("Block {} from {} failed after {} bytes ({}); trying the next replica", location,
          replica.getHostName(), delivered[0], last.getMessage());
    }
    // Made only when there was no replica to try: made on every read, its stack trace cost 1 % of a small GET's CPU.
    if (last == null) {
      missing[0] = false;
      return new IOException("no replicas");
    }
    return last;
  }

  /**
   * Reads the rest of the range from one replica: in-process if its read server is in this JVM, else through a
   * kept connection. One that fails before any byte came back may have gone stale while idle (its datanode
   * restarted, or a half-open connection that only times out): the read is tried once more on a new one.
   */
  private void readFrom(DatanodeDetails replica, BlockLocation location, long offset, long length,
      long[] delivered, ByteSink sink) throws IOException, DatanodeException {
    HostPort address = readAddress(replica);
    LocalBlockSource local = InProcessServers.readsAt(address);
    if (local != null) {
      local.read(location.block(), offset + delivered[0], length - delivered[0], location.token(),
          sink.counted(bytes -> delivered[0] += bytes), address + " (in-process)");
      return;
    }
    BlockReadClient reader = connections.borrow(address);
    long before = delivered[0];
    try {
      read(reader, location, offset, length, delivered, sink);
    } catch (IOException e) {
      if (!reader.answeredBefore() || delivered[0] > before) {
        throw e;
      }
      if (e instanceof SocketTimeoutException) {
        // Not a connection that went stale while idle (that fails at once): the datanode took the request and did
        // not answer, and the read lost the whole timeout.
        LOG.warn("A kept connection to {} did not answer ({}); reading on a new one", address, e.getMessage());
      } else {
        LOG.debug("A kept connection to {} failed ({}); reading on a new one", address, e.getMessage());
      }
      read(connections.open(address), location, offset, length, delivered, sink);
    }
  }

  /** One read on {@code reader}, which goes back to the pool only when the read ended cleanly. */
  private void read(BlockReadClient reader, BlockLocation location, long offset, long length, long[] delivered,
      ByteSink sink) throws IOException, DatanodeException {
    boolean clean = false;
    try {
      reader.read(location.block(), offset + delivered[0], length - delivered[0], location.token(),
          sink.counted(bytes -> delivered[0] += bytes));
      clean = true;
    } finally {
      if (clean) {
        connections.release(reader);
      } else {
        reader.close();
      }
    }
  }

  /** The stored checksums of a block's range, from the first of {@code replicas} that answers. */
  public ReadBlockResponse checksums(BlockLocation location, List<DatanodeDetails> replicas, long offset,
      long length) throws IOException {
    IOException last = null;
    for (DatanodeDetails replica : replicas) {
      try (BlockReadClient reader = connections.open(readAddress(replica))) {
        return reader.checksums(location.block(), offset, length, location.token());
      } catch (DatanodeException e) {
        last = new IOException(e.getMessage(), e);
      } catch (IOException e) {
        last = e;
      }
    }
    throw new IOException("no replica of block " + location + " gave its checksums; last error: "
        + (last == null ? "no replicas" : last.getMessage()), last);
  }

  private List<DatanodeDetails> replicasOf(BlockLocation location) throws IOException {
    return containerOf(location).getReplicasList();
  }

  private ContainerInfo containerOf(BlockLocation location) throws IOException {
    try {
      return scm.containers(List.of(location.block().getContainerId()), clientHost).get(0);
    } catch (ScmException e) {
      throw new IOException("cannot find the replicas of block " + location + ": " + e.getMessage(), e);
    }
  }

  private void report(BlockLocation location, DatanodeDetails replica, String reason) {
    UUID id = Uuids.fromProto(replica.getUuid());
    try {
      scm.reportBadReplica(location.block(), id, reason);
    } catch (ScmException e) {
      LOG.warn("Could not report the corrupt replica of {} on {} to SCM: {}", location, id, e.getMessage());
    }
  }

  private static HostPort readAddress(DatanodeDetails replica) {
    return DatanodeAddresses.of(replica, PortName.READ);
  }
}
