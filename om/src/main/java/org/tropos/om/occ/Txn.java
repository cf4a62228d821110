package org.tropos.om.occ;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.util.Optional;
import org.tropos.common.db.ReadView;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Preconditions;
import org.tropos.om.db.OmTable;
import org.tropos.om.db.RowCodec;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.UsageRow;

/**
 * One attempt of one request: its read phase runs on a snapshot without locks and records in a {@link ReadSet}
 * what it saw; its execute phase collects changes in a {@link WriteSet}. Reads see the transaction's own
 * pending changes first. Nothing is written until the committer validates the read set.
 *
 * <p>Not thread-safe: one request thread.
 */
public final class Txn {
  private final ReadView view;
  private final ObjectIds ids;
  private final Clock clock;
  private final ReadSet reads = new ReadSet();
  private final WriteSet writes = new WriteSet();
  private long now = -1;
  private boolean recording = true;

  Txn(ReadView view, ObjectIds ids, Clock clock) {
    this.view = view;
    this.ids = ids;
    this.clock = clock;
  }

  /** Reads a row, recording its version (or its absence) for validation. */
  public <T extends Message> Optional<T> get(OmTable table, byte[] key, Parser<T> parser) throws OmException {
    RowRef ref = RowRef.of(table, key);
    WriteSet.Mutation pending = writes.mutationOf(ref);
    if (pending != null) {
      Preconditions.assertTrue(pending.replacement() == null, "{} row read after it was replaced in the same"
          + " transaction: its value is only known at commit", table.family());
      return pending.row() == null ? Optional.empty() : Optional.of(cast(pending.row(), parser));
    }
    byte[] stored = read(table, key);
    if (recording) {
      reads.recordRow(ref, stored == null ? ReadSet.ABSENT : RowCodec.updateId(stored));
    }
    return stored == null ? Optional.empty() : Optional.of(parse(stored, parser, table));
  }

  /**
   * Runs {@code reads} without recording what they see: for checks that are only advice (the request is checked
   * again when it commits), so that they cannot make it conflict.
   */
  public <T> T unrecorded(OccRunner.Operation<T> reads) throws OmException {
    boolean was = recording;
    recording = false;
    try {
      return reads.execute(this);
    } finally {
      recording = was;
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends Message> T cast(Message row, Parser<T> parser) {
    return (T) row;
  }

  /** Whether no row's key starts with {@code prefix}; the answer is validated at commit (no phantoms). */
  public boolean isEmpty(OmTable table, byte[] prefix) throws OmException {
    if (recording) {
      reads.recordEmpty(table, prefix);
    }
    if (writesUnder(table, prefix)) {
      return false;
    }
    boolean[] empty = {true};
    view.scan(table.family(), prefix, prefix, (k, v) -> {
      WriteSet.Mutation pending = writes.mutationOf(RowRef.of(table, k));
      if (pending != null && pending.deletes()) {
        return true;
      }
      empty[0] = false;
      return false;
    });
    return empty[0];
  }

  /**
   * Whether some row's key starts with {@code prefix}, as this transaction sees it. A "yes" from a stored row is
   * validated at commit by that row (it must still be there), a "no" as {@link #isEmpty}'s: so a decision taken on
   * either answer conflicts with a commit that changes it.
   */
  public boolean hasAny(OmTable table, byte[] prefix) throws OmException {
    if (writesUnder(table, prefix)) {
      return true;
    }
    byte[][] found = {null, null};
    view.scan(table.family(), prefix, prefix, (k, v) -> {
      WriteSet.Mutation pending = writes.mutationOf(RowRef.of(table, k));
      if (pending != null && pending.deletes()) {
        return true;
      }
      found[0] = k;
      found[1] = v;
      return false;
    });
    if (found[0] == null) {
      return !isEmpty(table, prefix);
    }
    if (recording) {
      reads.recordRow(RowRef.of(table, found[0]), RowCodec.updateId(found[1]));
    }
    return true;
  }

  /** Whether this transaction puts a row whose key starts with {@code prefix}. */
  private boolean writesUnder(OmTable table, byte[] prefix) {
    for (WriteSet.Mutation m : writes.mutations()) {
      if (!m.deletes() && m.ref().table() == table && startsWith(m.ref().keyBytes(), prefix)) {
        return true;
      }
    }
    return false;
  }

  /** Visits rows under a prefix without recording them: for listings, which change nothing. */
  public <T extends Message> void scan(OmTable table, byte[] prefix, byte[] from, Parser<T> parser,
      RowVisitor<T> visitor) throws OmException {
    OmException[] failure = {null};
    view.scan(table.family(), prefix, from, (k, v) -> {
      try {
        return visitor.visit(k, parse(v, parser, table));
      } catch (OmException e) {
        failure[0] = e;
        return false;
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
  }

  /** Visits parsed rows; returns false to stop. */
  @FunctionalInterface
  public interface RowVisitor<T> {
    boolean visit(byte[] key, T row) throws OmException;
  }

  /** A bucket's usage as of the snapshot, not recorded: the committer counts usage, nobody validates it. */
  public UsageRow usage(byte[] bucketKey) throws OmException {
    byte[] stored = read(OmTable.USAGE, bucketKey);
    return stored == null ? UsageRow.getDefaultInstance() : parse(stored, UsageRow.parser(), OmTable.USAGE);
  }

  public void put(OmTable table, byte[] key, Message row) {
    writes.put(table, key, row);
  }

  public void delete(OmTable table, byte[] key) {
    writes.delete(table, key);
  }

  /** Writes a row whose new value the committer computes from the one committed by then (see Replacement). */
  public void replace(OmTable table, byte[] key, Replacement replacement) {
    writes.replace(table, key, replacement);
  }

  public void addUsage(WriteSet.UsageDelta delta) {
    writes.addUsage(delta);
  }

  public long newObjectId() throws OmException {
    return ids.next();
  }

  /** Wall-clock milliseconds, the same for every timestamp of this attempt. */
  public long nowMillis() {
    if (now < 0) {
      now = clock.wallTime().toEpochMilli();
    }
    return now;
  }

  ReadSet reads() {
    return reads;
  }

  WriteSet writes() {
    return writes;
  }

  private byte[] read(OmTable table, byte[] key) throws OmException {
    try {
      return view.get(table.family(), key);
    } catch (IOException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, e.getMessage());
    }
  }

  private static <T extends Message> T parse(byte[] stored, Parser<T> parser, OmTable table) throws OmException {
    try {
      return parser.parseFrom(RowCodec.payload(stored));
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "unreadable row in " + table.family() + ": " + e.getMessage());
    }
  }

  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
