package org.tropos.client.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OmResult;

/**
 * HDFS's rename over the OM's: one OM transaction whatever the source holds, and usually one call, since the OM's
 * answer tells HDFS's cases apart; only an existing destination costs a lookup.
 */
final class Renames {
  private final TroposClient client;
  private final PathLookup paths;

  Renames(TroposClient client, PathLookup paths) {
    this.client = client;
    this.paths = paths;
  }

  /**
   * Onto an existing directory moves the source into it; false when the source is missing, the destination exists
   * or its parent does not, or a directory would move into itself. Both ends must be in one bucket.
   */
  boolean rename(Path src, Path dst) throws IOException {
    TroposPath from = paths.resolve(src);
    TroposPath to = paths.resolve(dst);
    if (!from.isKey()) {
      return false;
    }
    if (to.equals(from)) {
      FileStatus source = paths.statusOrNull(src);
      return source != null && source.isFile();
    }
    if (to.isKey() && to.sameBucket(from) && renameInOm(from, to)) {
      return true;
    }
    // The destination exists (or is a volume or bucket): a directory takes the source in, under its own name.
    FileStatus existing = paths.statusOrNull(dst);
    if (existing == null || !existing.isDirectory()) {
      requireSameBucket(from, to);
      return false;
    }
    TroposPath inside = paths.resolve(new Path(paths.qualify(dst), src.getName()));
    requireSameBucket(from, inside);
    return !inside.equals(from) && renameInOm(from, inside);
  }

  private static void requireSameBucket(TroposPath from, TroposPath to) throws IOException {
    if (!to.isKey() || !to.sameBucket(from)) {
      throw new IOException("cannot rename " + from + " to " + to + ": a rename stays inside one bucket");
    }
  }

  /** False for what HDFS answers false to: a missing source or parent, an existing target, a move into itself. */
  private boolean renameInOm(TroposPath from, TroposPath to) throws IOException {
    try {
      client.renameKey(from.volume(), from.bucket(), from.key(), to.key());
      return true;
    } catch (OmException e) {
      if (FsErrors.notFound(e) || e.result() == OmResult.FILE_ALREADY_EXISTS
          || e.result() == OmResult.INVALID_PATH) {
        return false;
      }
      throw FsErrors.of(e, from);
    }
  }
}
