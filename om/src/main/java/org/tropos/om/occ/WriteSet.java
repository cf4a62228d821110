package org.tropos.om.occ;

import com.google.protobuf.Message;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tropos.om.db.OmTable;

/**
 * What a transaction's execute phase decided to change: rows to put (unstamped: the committer gives them their
 * transaction id) and rows to delete, plus usage deltas per bucket. Usage is counted by the committer rather than
 * read and written by the transaction, so that counting bytes never makes two transactions conflict.
 */
public final class WriteSet {
  /**
   * A row to put ({@code row}), to delete (both null), or to replace at commit ({@code replacement}: its new value
   * depends on the value committed by then).
   */
  public record Mutation(RowRef ref, Message row, Replacement replacement) {
    boolean deletes() {
      return row == null && replacement == null;
    }
  }

  /** Bytes and names a bucket gains (or loses, negative), with its quotas (0 = none) to check them against. */
  public record UsageDelta(String bucket, long bytes, long names, long quotaBytes, long quotaNames) {
    UsageDelta plus(UsageDelta other) {
      return new UsageDelta(bucket, bytes + other.bytes, names + other.names, quotaBytes, quotaNames);
    }
  }

  private final Map<RowRef, Mutation> mutations = new LinkedHashMap<>();
  private final Map<String, UsageDelta> usage = new LinkedHashMap<>();

  void put(OmTable table, byte[] key, Message row) {
    RowRef ref = RowRef.of(table, key);
    mutations.put(ref, new Mutation(ref, row, null));
  }

  void delete(OmTable table, byte[] key) {
    RowRef ref = RowRef.of(table, key);
    mutations.put(ref, new Mutation(ref, null, null));
  }

  void replace(OmTable table, byte[] key, Replacement replacement) {
    RowRef ref = RowRef.of(table, key);
    mutations.put(ref, new Mutation(ref, null, replacement));
  }

  void addUsage(UsageDelta delta) {
    usage.merge(delta.bucket(), delta, UsageDelta::plus);
  }

  /** The pending change of a row in this transaction, or null. */
  Mutation mutationOf(RowRef ref) {
    return mutations.get(ref);
  }

  public Collection<Mutation> mutations() {
    return Collections.unmodifiableCollection(mutations.values());
  }

  public Collection<UsageDelta> usage() {
    return Collections.unmodifiableCollection(usage.values());
  }

  public boolean isEmpty() {
    return mutations.isEmpty() && usage.isEmpty();
  }
}
