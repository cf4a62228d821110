package org.tropos.om.occ;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tropos.common.db.ReadView;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.db.RowCodec;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.UsageRow;

/**
 * The validate step of optimistic concurrency, for one group commit: transactions are taken in order; each is
 * checked against the latest committed state plus the changes of the transactions accepted before it in the
 * same batch; an accepted one gets the next transaction id, which stamps every row it writes. What comes out is
 * a list of stored changes, independent of how it is applied (one RocksDB batch here; a Raft log entry once the
 * OM is replicated), so the same validated write set can later be replicated.
 *
 * <p>Not thread-safe: the committer's thread.
 */
public final class BatchValidator {
  private final ReadView latest;
  private long lastTxId;
  /** Rows changed in this batch so far: their new version ({@link ReadSet#ABSENT} once deleted). */
  private final Map<RowRef, Long> versions = new HashMap<>();
  /** Committed versions already looked up in this batch (the bucket's row is in nearly every read set). */
  private final Map<RowRef, Long> readVersions = new HashMap<>();
  /** The payloads of rows changed in this batch so far (null once deleted). */
  private final Map<RowRef, byte[]> payloads = new HashMap<>();
  /** Keys changed in this batch per table, in order, true when the row now exists: for range checks. */
  private final Map<OmTable, TreeMap<ByteBuffer, Boolean>> changedKeys = new EnumMap<>(OmTable.class);
  private final Map<String, UsageRow> usage = new HashMap<>();
  private final List<OmDb.Change> changes = new ArrayList<>();

  public BatchValidator(ReadView latest, long lastTxId) {
    this.latest = latest;
    this.lastTxId = lastTxId;
  }

  /** Accepts a transaction and returns its id, or refuses it with a {@link Conflict} (or quota error). */
  public long accept(ReadSet reads, WriteSet writes) throws Conflict, OmException {
    for (Map.Entry<RowRef, Long> read : reads.versions().entrySet()) {
      long now = currentVersion(read.getKey());
      if (now != read.getValue()) {
        throw new Conflict(read.getKey().table().family() + " row changed (version " + read.getValue() + " -> "
            + now + ")");
      }
    }
    for (ReadSet.EmptyRange range : reads.emptyRanges()) {
      if (!isEmpty(range.table(), range.prefix(), writes)) {
        throw new Conflict(range.table().family() + " range no longer empty");
      }
    }
    long txId = lastTxId + 1;
    List<Put> puts = new ArrayList<>();
    List<WriteSet.UsageDelta> usageDeltas = new ArrayList<>(writes.usage());
    Effects effects = new Effects(txId, puts, usageDeltas);
    for (WriteSet.Mutation m : writes.mutations()) {
      Message row = m.replacement() != null ? m.replacement().replace(currentPayload(m.ref()), effects) : m.row();
      puts.add(new Put(m.ref(), row));
    }
    Map<String, UsageRow> newUsage = countUsage(usageDeltas);
    lastTxId = txId;
    for (Put p : puts) {
      byte[] key = p.ref().keyBytes();
      byte[] payload = p.row() == null ? null : p.row().toByteArray();
      changes.add(new OmDb.Change(p.ref().table(), key, payload == null ? null : RowCodec.encode(txId, payload)));
      versions.put(p.ref(), payload == null ? ReadSet.ABSENT : txId);
      payloads.put(p.ref(), payload);
      changedKeys.computeIfAbsent(p.ref().table(), t -> new TreeMap<>()).put(ByteBuffer.wrap(key), payload != null);
    }
    newUsage.forEach((bucket, row) -> {
      usage.put(bucket, row);
      changes.add(new OmDb.Change(OmTable.USAGE, OmDbKeys.utf8(bucket), RowCodec.encode(txId, row.toByteArray())));
    });
    return txId;
  }

  /** A row to store ({@code row} null: to delete). */
  private record Put(RowRef ref, Message row) {
  }

  /** Where a replacement's follow-up changes go. */
  private record Effects(long txId, List<Put> puts, List<WriteSet.UsageDelta> usage) implements Replacement.Effects {
    @Override
    public void put(OmTable table, byte[] key, Message row) {
      puts.add(new Put(RowRef.of(table, key), row));
    }

    @Override
    public void addUsage(WriteSet.UsageDelta delta) {
      usage.add(delta);
    }
  }

  /** A row's payload as committed so far, this batch included; null when absent. */
  private byte[] currentPayload(RowRef ref) throws OmException {
    if (versions.containsKey(ref)) {
      return payloads.get(ref);
    }
    byte[] stored = get(ref.table(), ref.keyBytes());
    return stored == null ? null : RowCodec.payload(stored);
  }

  public List<OmDb.Change> changes() {
    return changes;
  }

  public long lastTxId() {
    return lastTxId;
  }

  private long currentVersion(RowRef ref) throws OmException {
    Long changed = versions.get(ref);
    if (changed != null) {
      return changed;
    }
    Long read = readVersions.get(ref);
    if (read == null) {
      byte[] stored = get(ref.table(), ref.keyBytes());
      read = stored == null ? ReadSet.ABSENT : RowCodec.updateId(stored);
      readVersions.put(ref, read);
    }
    return read;
  }

  /**
   * Whether no row's key starts with {@code prefix} after the batch so far, leaving out the rows the transaction
   * itself deletes ({@code own}): it found the range empty as it saw it, its own deletes included.
   */
  private boolean isEmpty(OmTable table, byte[] prefix, WriteSet own) {
    TreeMap<ByteBuffer, Boolean> changed = changedKeys.getOrDefault(table, new TreeMap<>());
    for (Map.Entry<ByteBuffer, Boolean> e : changed.tailMap(ByteBuffer.wrap(prefix), true).entrySet()) {
      byte[] key = e.getKey().array();
      if (!Txn.startsWith(key, prefix)) {
        break;
      }
      if (e.getValue() && !deletes(own, table, key)) {
        return false;
      }
    }
    boolean[] empty = {true};
    latest.scan(table.family(), prefix, prefix, (k, v) -> {
      if (Boolean.FALSE.equals(changed.get(ByteBuffer.wrap(k))) || deletes(own, table, k)) {
        return true;
      }
      empty[0] = false;
      return false;
    });
    return empty[0];
  }

  private static boolean deletes(WriteSet writes, OmTable table, byte[] key) {
    WriteSet.Mutation m = writes.mutationOf(RowRef.of(table, key));
    return m != null && m.deletes();
  }

  /** Each bucket's usage after this transaction's deltas (summed first), checked against its quotas. */
  private Map<String, UsageRow> countUsage(List<WriteSet.UsageDelta> deltas) throws OmException {
    Map<String, WriteSet.UsageDelta> sums = new LinkedHashMap<>();
    for (WriteSet.UsageDelta d : deltas) {
      sums.merge(d.bucket(), d, (a, b) -> new WriteSet.UsageDelta(a.bucket(), a.bytes() + b.bytes(),
          a.names() + b.names(), Math.max(a.quotaBytes(), b.quotaBytes()), Math.max(a.quotaNames(), b.quotaNames())));
    }
    Map<String, UsageRow> result = new HashMap<>();
    for (WriteSet.UsageDelta d : sums.values()) {
      UsageRow now = usage.containsKey(d.bucket()) ? usage.get(d.bucket()) : storedUsage(d.bucket());
      long bytes = now.getUsedBytes() + d.bytes();
      long names = now.getUsedNamespace() + d.names();
      if (d.bytes() > 0 && d.quotaBytes() > 0 && bytes > d.quotaBytes()) {
        throw new OmException(OmResult.QUOTA_EXCEEDED, "bucket " + d.bucket() + " would hold " + bytes
            + " bytes, over its quota of " + d.quotaBytes());
      }
      if (d.names() > 0 && d.quotaNames() > 0 && names > d.quotaNames()) {
        throw new OmException(OmResult.QUOTA_EXCEEDED, "bucket " + d.bucket() + " would hold " + names
            + " names, over its quota of " + d.quotaNames());
      }
      result.put(d.bucket(), UsageRow.newBuilder().setUsedBytes(bytes).setUsedNamespace(names).build());
    }
    return result;
  }

  private UsageRow storedUsage(String bucket) throws OmException {
    byte[] stored = get(OmTable.USAGE, OmDbKeys.utf8(bucket));
    try {
      return stored == null ? UsageRow.getDefaultInstance() : UsageRow.parseFrom(RowCodec.payload(stored));
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "unreadable usage of " + bucket + ": " + e.getMessage());
    }
  }

  private byte[] get(OmTable table, byte[] key) throws OmException {
    try {
      return latest.get(table.family(), key);
    } catch (IOException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, e.getMessage());
    }
  }
}
