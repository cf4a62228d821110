package org.tropos.om.occ;

import java.io.IOException;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDb;
import org.tropos.proto.om.OmResult;

/**
 * Hands out object ids, unique for the life of the database. Ids are reserved in blocks whose end is persisted
 * before any id of the block is used, so a restart continues above every id ever handed out (skipping the rest
 * of the block). Ids are chosen in the execute phase because a write set refers to them (a new directory's
 * children are keyed by its id).
 *
 * <p>Thread-safe: one private lock.
 */
public final class ObjectIds {
  private static final long BLOCK = 1 << 20;

  private final OmDb db;
  private long next;
  private long limit;

  public ObjectIds(OmDb db) throws IOException {
    this.db = db;
    this.next = Math.max(1, db.objectIdHighWater());
    this.limit = next;
  }

  public synchronized long next() throws OmException {
    if (next >= limit) {
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
