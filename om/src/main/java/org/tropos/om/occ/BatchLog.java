package org.tropos.om.occ;

import java.io.IOException;
import org.tropos.proto.om.db.JournalEntry;

/**
 * Where the committer's validated batches go to become durable and applied. For a single OM that is its
 * database's journal ({@link org.tropos.om.db.OmDb#append}); with OM HA it is the Raft log, and every OM's state
 * machine applies the entry once committed. What travels is the validated write set, never the request: followers
 * apply it without executing anything (docs/design.md, "OM and SCM HA").
 */
@FunctionalInterface
public interface BatchLog {
  /** Returns once {@code entry} is durable and applied to this OM's database; an error leaves it unapplied. */
  void append(JournalEntry entry) throws IOException;
}
