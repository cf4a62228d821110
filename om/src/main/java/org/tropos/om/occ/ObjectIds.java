package org.tropos.om.occ;

import java.io.IOException;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDb;
import org.tropos.proto.om.OmResult;

/**
 * Hands out object ids, unique for the life of the namespace. Ids are chosen in the execute phase because a write
 * set refers to them (a new directory's children are keyed by its id).
 *
 * <p>A single OM reserves ids in blocks whose end is persisted before any id of the block is used, so a restart
 * continues above every id ever handed out (skipping the rest of the block). With OM HA that reservation would be
 * one OM's alone, so a leader takes its ids from a range of its own instead: term T owns
 * [T &lt;&lt; {@value #TERM_SHIFT}, (T + 1) &lt;&lt; {@value #TERM_SHIFT}). No two leaders share a term, a
 * restarted OM leads only in a new term, and ids a deposed leader used in write sets the group refused are simply
 * never used again. A database that served a single OM before keeps its ids below its high-water mark, and a
 * term's range never starts below that mark.
 *
 * <p>Thread-safe: one private lock.
 */
public final class ObjectIds {
  static final int TERM_SHIFT = 40;
  private static final long BLOCK = 1 << 20;

  private final OmDb db;
  private final boolean replicated;
  private long next;
  private long limit;

  /** Ids for a single OM, reserved in persisted blocks. */
  public ObjectIds(OmDb db) throws IOException {
    this.db = db;
    this.replicated = false;
    this.next = Math.max(1, db.objectIdHighWater());
    this.limit = next;
  }

  private ObjectIds(OmDb db, long term) throws IOException {
    this.db = db;
    this.replicated = true;
    if (term > 0) {
      startTerm(term);
    }
  }

  /** Ids for an OM of an HA group, starting with the range of the term it leads in. */
  public static ObjectIds forTerm(OmDb db, long term) throws IOException {
    return new ObjectIds(db, term);
  }

  /** Ids for an OM of an HA group that leads no term yet: none until {@link #startTerm}. */
  public static ObjectIds replicated(OmDb db) throws IOException {
    return new ObjectIds(db, 0);
  }

  /** Moves to the range of {@code term}, in which this OM has just become leader (HA only). */
  public synchronized void startTerm(long term) throws IOException {
    if (!replicated) {
      throw new IllegalStateException("a single OM's ids are not per term");
    }
    if (term <= 0 || term >= 1L << (Long.SIZE - 1 - TERM_SHIFT)) {
      throw new IllegalArgumentException("Raft term out of range for object ids: " + term);
    }
    next = Math.max(term << TERM_SHIFT, Math.max(1, db.objectIdHighWater()));
    limit = (term + 1) << TERM_SHIFT;
  }

  public synchronized long next() throws OmException {
    if (next >= limit) {
      if (replicated) {
        throw new OmException(OmResult.INTERNAL_ERROR, "no object ids left: this OM leads no term, or its term has"
            + " used all of its range (the next leader takes over in a new term)");
      }
      try {
        db.setObjectIdHighWater(next + BLOCK);
      } catch (IOException e) {
        throw new OmException(OmResult.INTERNAL_ERROR, "cannot reserve object ids: " + e.getMessage());
      }
      limit = next + BLOCK;
    }
    return next++;
  }
}
