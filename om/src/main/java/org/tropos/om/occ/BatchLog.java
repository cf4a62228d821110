package org.tropos.om.occ;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.tropos.proto.om.db.JournalEntry;

/**
 * Where the committer's validated batches go to become durable and applied. For a single OM that is its
 * database's journal ({@link org.tropos.om.db.OmDb#append}); with OM HA it is the Raft log, and every OM's state
 * machine applies the entry once committed. What travels is the validated write set, never the request: followers
 * apply it without executing anything (docs/design.md, "OM and SCM HA").
 */
@FunctionalInterface
public interface BatchLog {
  /**
   * Returns once {@code entry} is durable and applied to this OM's database. {@link UnavailableException}: the
   * log could not take it now (no Raft leader or majority); whether it will still apply is unknown.
   */
  void append(JournalEntry entry) throws IOException;

  /**
   * Starts appending {@code entry}; the future completes once it is durable and applied, or fails as
   * {@link #append} would. Entries complete in the order they were started. By default the append happens now.
   */
  default CompletableFuture<Void> appendAsync(JournalEntry entry) {
    try {
      append(entry);
      return CompletableFuture.completedFuture(null);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * How many entries may be in flight at once: 1 for a log that applies each entry before taking the next (the
   * journal); more for one with a round trip worth overlapping (the Raft log).
   */
  default int maxInFlight() {
    return 1;
  }

  /** The log cannot take entries now (OM HA: no leader or majority in time); the caller may retry later. */
  final class UnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
