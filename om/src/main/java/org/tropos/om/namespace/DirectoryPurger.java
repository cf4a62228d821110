package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DeletedDirectoryRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;

/**
 * Empties deleted directories in the background: a recursive delete removed only the directory's row, at once;
 * here its files go to the deleted keys (their blocks to SCM later) and its subdirectories become deleted
 * directories in turn, a bounded number per transaction, until nothing is left and the deleted directory's row
 * goes too. Nothing here is reachable from the namespace any more, so the purge conflicts with no request.
 *
 * <p>Thread-safe, but meant for one background thread.
 */
public final class DirectoryPurger {
  private static final int ENTRIES_PER_TRANSACTION = 1000;

  private final OccRunner runner;

  public DirectoryPurger(OccRunner runner) {
    this.runner = runner;
  }

  /** Purges until every deleted directory is gone; returns how many entries were removed. */
  public long purgeAll() throws OmException {
    long total = 0;
    for (int removed = purgeSome(); removed > 0; removed = purgeSome()) {
      total += removed;
    }
    return total;
  }

  /** One transaction's worth: returns the entries it removed (0 when there was nothing to do). */
  public int purgeSome() throws OmException {
    return runner.run("purge deleted directories", txn -> {
      List<DeletedDirectoryRow> pending = new ArrayList<>();
      byte[] all = new byte[0];
      txn.scan(OmTable.DELETED_DIRECTORIES, all, all, DeletedDirectoryRow.parser(), (k, row) -> pending.add(row)
          && pending.size() < ENTRIES_PER_TRANSACTION);
      int[] budget = {ENTRIES_PER_TRANSACTION};
      int removed = 0;
      for (DeletedDirectoryRow dir : pending) {
        if (budget[0] <= 0) {
          break;
        }
        removed += purge(txn, dir, budget);
      }
      return removed;
    });
  }

  /** Removes up to {@code budget} children of one deleted directory, and its row once it has none left. */
  private static int purge(Txn txn, DeletedDirectoryRow dir, int[] budget) throws OmException {
    String usageKey = liveBucketKey(txn, dir);
    byte[] children = OmDbKeys.childrenOf(dir.getBucketId(), dir.getObjectId());
    List<DirectoryRow> dirs = new ArrayList<>();
    txn.scan(OmTable.DIRECTORIES, children, children, DirectoryRow.parser(), (k, row) -> dirs.add(row)
        && dirs.size() < budget[0]);
    for (DirectoryRow sub : dirs) {
      txn.delete(OmTable.DIRECTORIES, OmDbKeys.child(dir.getBucketId(), dir.getObjectId(), sub.getName()));
      txn.put(OmTable.DELETED_DIRECTORIES, OmDbKeys.ids(dir.getBucketId(), sub.getObjectId()),
          dir.toBuilder().setObjectId(sub.getObjectId()).setPath(dir.getPath() + "/" + sub.getName()).build());
      Usage.free(txn, usageKey, 0, 1);
    }
    budget[0] -= dirs.size();
    List<FileRow> files = new ArrayList<>();
    if (budget[0] > 0) {
      txn.scan(OmTable.FILES, children, children, FileRow.parser(), (k, row) -> files.add(row)
          && files.size() < budget[0]);
    }
    for (FileRow file : files) {
      DeletedKeys.remove(txn, usageKey, OmTable.FILES,
          OmDbKeys.child(dir.getBucketId(), dir.getObjectId(), file.getName()), dir.getPath() + "/" + file.getName(),
          file);
    }
    budget[0] -= files.size();
    if (budget[0] > 0) {
      txn.delete(OmTable.DELETED_DIRECTORIES, OmDbKeys.ids(dir.getBucketId(), dir.getObjectId()));
      return dirs.size() + files.size() + 1;
    }
    return dirs.size() + files.size();
  }

  /**
   * The usage key of the directory's bucket, or null when that bucket was deleted since (a recursive delete of
   * a bucket's contents, then of the bucket, leaves their purge to run after it): its usage went with it, and
   * a new bucket of the same name starts from zero.
   */
  private static String liveBucketKey(Txn txn, DeletedDirectoryRow dir) throws OmException {
    String key = dir.getBucketKey();
    int slash = key.indexOf('/');
    boolean live = txn.get(OmTable.BUCKETS, OmDbKeys.bucket(key.substring(0, slash), key.substring(slash + 1)),
        BucketRow.parser()).filter(b -> b.getObjectId() == dir.getBucketId()).isPresent();
    return live ? key : null;
  }
}
