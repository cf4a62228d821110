package org.tropos.client.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Hadoop paths as the parts of {@link TroposFileSystem} see them: qualified against its URI and working directory,
 * read as volume, bucket and key, and looked up. Lookups go through the file system's own getFileStatus, so they
 * count among its operations and follow a subclass's, just as when they were its own calls.
 */
final class PathLookup {
  private final FileSystem fs;

  PathLookup(FileSystem fs) {
    this.fs = fs;
  }

  Path qualify(Path path) {
    return fs.makeQualified(path);
  }

  TroposPath resolve(Path path) {
    return TroposPath.of(fs.makeQualified(path));
  }

  /** The status of {@code path}; null when it does not exist. */
  FileStatus statusOrNull(Path path) throws IOException {
    try {
      return fs.getFileStatus(path);
    } catch (FileNotFoundException e) {
      return null;
    }
  }
}
