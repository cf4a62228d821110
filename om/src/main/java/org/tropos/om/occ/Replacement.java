package org.tropos.om.occ;

import com.google.protobuf.Message;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;

/**
 * A row written without being read first: at commit, the committer hands over the row's value at that moment and
 * gets the new row, plus any follow-up changes (freeing what the old row held). Concurrent replacements of one
 * row therefore never conflict, and none is lost: each sees the one committed before it. It runs on the
 * committer's thread, so it must be quick, and it must depend only on its input (the committed changes it
 * produces, not the function, are what OM HA will replicate).
 */
@FunctionalInterface
public interface Replacement {
  /** The new row, given the current one's stored payload ({@code null} when there is none). */
  Message replace(byte[] currentPayload, Effects effects) throws OmException;

  /** Follow-up changes of a replacement, committed with it. */
  interface Effects {
    /** The id of the committing transaction (unique: usable in keys of new rows). */
    long txId();

    void put(OmTable table, byte[] key, Message row);

    void addUsage(WriteSet.UsageDelta delta);
  }
}
