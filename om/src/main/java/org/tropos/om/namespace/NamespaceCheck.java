package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DeletedDirectoryRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.UsageRow;

/**
 * A full consistency check of one FSO bucket, on one snapshot: every directory and file hangs under the bucket's
 * root or under a deleted directory awaiting purge (no orphan); following parents from any directory reaches one
 * of those without a cycle; no name is both a file and a directory; the bucket's usage matches its rows.
 * Returns the problems found (none = consistent).
 */
public final class NamespaceCheck {
  private NamespaceCheck() {
  }

  private static final int MAX_REPORTED = 20;

  public static List<String> check(OccRunner runner, String volume, String bucket) throws OmException {
    List<String> problems = runner.run("check " + volume + "/" + bucket,
        txn -> check(txn, Buckets.require(txn, volume, bucket)));
    if (problems.size() <= MAX_REPORTED) {
      return problems;
    }
    List<String> first = new ArrayList<>(problems.subList(0, MAX_REPORTED));
    first.add("... and " + (problems.size() - MAX_REPORTED) + " more");
    return first;
  }

  private static List<String> check(Txn txn, BucketRow bucket) throws OmException {
    long root = bucket.getObjectId();
    byte[] all = OmDbKeys.bucketPrefix(root);
    Map<Long, Long> parentOf = new HashMap<>();
    Set<String> dirNames = new HashSet<>();
    List<String> problems = new ArrayList<>();
    txn.scan(OmTable.DIRECTORIES, all, all, DirectoryRow.parser(), (k, row) -> {
      if (parentOf.put(row.getObjectId(), row.getParentId()) != null) {
        problems.add("directory id " + row.getObjectId() + " appears twice");
      }
      dirNames.add(row.getParentId() + "/" + row.getName());
      return true;
    });
    Set<Long> deleted = new HashSet<>();
    txn.scan(OmTable.DELETED_DIRECTORIES, all, all, DeletedDirectoryRow.parser(), (k, row) ->
        deleted.add(row.getObjectId()));
    long[] files = {0};
    long[] bytes = {0};
    txn.scan(OmTable.FILES, all, all, FileRow.parser(), (k, row) -> {
      files[0]++;
      bytes[0] += row.getSize();
      if (dirNames.contains(row.getParentId() + "/" + row.getName())) {
        problems.add("'" + row.getName() + "' under " + row.getParentId() + " is both a file and a directory");
      }
      if (row.getParentId() != root && !parentOf.containsKey(row.getParentId())
          && !deleted.contains(row.getParentId())) {
        problems.add("file " + row.getObjectId() + " '" + row.getName() + "' is an orphan");
      }
      return true;
    });
    for (long dir : parentOf.keySet()) {
      checkAncestry(dir, root, parentOf, deleted, problems);
    }
    UsageRow usage = txn.usage(OmDbKeys.bucket(bucket.getVolume(), bucket.getName()));
    long names = parentOf.size() + files[0];
    if (usage.getUsedNamespace() != names || usage.getUsedBytes() != bytes[0]) {
      problems.add("usage says " + usage.getUsedNamespace() + " names and " + usage.getUsedBytes() + " bytes; rows"
          + " hold " + names + " and " + bytes[0]);
    }
    return problems;
  }

  private static void checkAncestry(long dir, long root, Map<Long, Long> parentOf, Set<Long> deleted,
      List<String> problems) {
    Set<Long> seen = new HashSet<>();
    long at = dir;
    while (at != root && !deleted.contains(at)) {
      if (!seen.add(at)) {
        problems.add("directory " + dir + " is in a cycle");
        return;
      }
      Long parent = parentOf.get(at);
      if (parent == null) {
        problems.add("directory " + dir + " is an orphan (no parent " + at + ")");
        return;
      }
      at = parent;
    }
  }
}
