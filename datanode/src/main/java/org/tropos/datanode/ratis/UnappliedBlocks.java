package org.tropos.datanode.ratis;

import java.io.IOException;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.proto.datanode.PutBlock;

/**
 * The blocks committed by entries of a member's log that it has not applied, recorded before it leaves the group
 * (whose directory goes with it). After a power cut their rows exist only in the log: rows are written without
 * RocksDB's WAL until a snapshot flushes them, and a restarted member applies nothing past its snapshot until a
 * leader tells it what was committed, which none may do once SCM has closed the pipeline. Left to the group's
 * removal, the rows of acknowledged blocks could be lost on every replica (issue 44, lead 1). Every entry past the
 * applied index is kept, not only those up to the commit index the member knows: a restarted member learns what
 * was committed only from a leader, so its own commit index may be behind entries that were acknowledged. A block
 * whose entry was never committed only leaves a row no key refers to.
 */
final class UnappliedBlocks {
  private static final Logger LOG = LoggerFactory.getLogger(UnappliedBlocks.class);

  private UnappliedBlocks() {
  }

  /** Records in {@code store} the blocks of {@code log}'s entries after {@code applied}, and flushes the rows. */
  static void keep(RaftLog log, long applied, ContainerStore store, String group) throws IOException {
    TermIndex last = log.getLastEntryTermIndex();
    boolean recorded = false;
    for (long index = applied + 1; last != null && index <= last.getIndex(); index++) {
      LogEntryProto entry = log.get(index);
      PutBlock put = entry == null || !entry.hasStateMachineLogEntry() ? null
          : ContainerStateMachine.committedBlock(ContainerStateMachine.parse(entry.getStateMachineLogEntry()
              .getLogData()));
      if (put == null) {
        continue;
      }
      recorded = true;
      try {
        store.sync(put.getBlockId());
        store.putBlock(ContainerStateMachine.blockData(put, index));
      } catch (DatanodeException e) {
        LOG.warn("{}: block {}/{} of log entry {} not recorded: {}", group, put.getBlockId().getContainerId(),
            put.getBlockId().getLocalId(), index, e.getMessage());
      }
    }
    if (!recorded) {
      return;
    }
    try {
      store.flushBlockRecords();
    } catch (DatanodeException e) {
      throw new IOException(group + ": cannot flush the block records kept from its log: " + e.getMessage(), e);
    }
  }
}
