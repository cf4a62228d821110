package org.tropos.common.fault;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named places in main code where a test makes the code fail or wait, instead of killing a process or sleeping
 * until a race happens (issue 44; Ratis's CodeInjectionForTesting is the model). Main code calls {@link #hit} where
 * the named thing happens; only tests {@link #arm} a point. Unarmed, a hit costs one volatile read.
 */
public final class FaultPoints {
  /** A datanode forcing a block file's bytes to disk before the block is committed. */
  public static final String CHUNK_FSYNC = "datanode.chunk.fsync";
  /** A datanode's pipeline applying a committed PutBlock to its replica. */
  public static final String PUT_BLOCK_APPLY = "datanode.putblock.apply";
  /** A datanode renaming a finished container copy into place. */
  public static final String CONTAINER_COPY_RENAME = "datanode.container.copy.rename";
  /** A datanode sending a heartbeat to an SCM. */
  public static final String HEARTBEAT_SEND = "datanode.heartbeat.send";
  /** The OM syncing a record of its journal. */
  public static final String JOURNAL_SYNC = "om.journal.sync";
  /** An HA OM submitting a batch to the OMs' Raft group. */
  public static final String RAFT_SUBMIT = "om.raft.submit";
  /** A write to a RocksDB database (OM, SCM, a datanode's volume). */
  public static final String ROCKSDB_WRITE = "rocksdb.write";

  private static final Map<String, Fault> ARMED = new ConcurrentHashMap<>();
  private static volatile boolean anyArmed;

  private FaultPoints() {
  }

  /** What an armed point does when hit: throw as the failing disk or network would, or wait for the test. */
  @FunctionalInterface
  public interface Fault {
    void strike(String point) throws IOException;
  }

  /** A fault that fails every hit with an IOException naming the point. */
  public static Fault failing() {
    return point -> {
      throw new IOException("fault injected at " + point);
    };
  }

  /** Called where the named thing happens: does what the test armed there, if anything. */
  public static void hit(String point) throws IOException {
    if (anyArmed) {
      Fault fault = ARMED.get(point);
      if (fault != null) {
        fault.strike(point);
      }
    }
  }

  /** Arms {@code point} with {@code fault} until the returned handle is closed. For tests only. */
  public static Armed arm(String point, Fault fault) {
    if (ARMED.putIfAbsent(point, fault) != null) {
      throw new IllegalStateException("fault point " + point + " is armed already");
    }
    anyArmed = true;
    return new Armed(point, fault);
  }

  /** An armed point; closing it disarms it. */
  public static final class Armed implements AutoCloseable {
    private final String point;
    private final Fault fault;

    private Armed(String point, Fault fault) {
      this.point = point;
      this.fault = fault;
    }

    @Override
    public void close() {
      ARMED.remove(point, fault);
      anyArmed = !ARMED.isEmpty();
    }
  }
}
