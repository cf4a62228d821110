package org.tropos.client.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.tropos.client.KeyOutputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OpenKeyRequest;

/**
 * Creates files and directories as HDFS does: what is in the way is found before anything is written (a file
 * cannot go under a file, nor replace a directory), and missing parents are created, the volume and bucket too.
 */
final class PathCreation {
  private final TroposClient client;
  private final TopLevels levels;
  private final String user;
  private final PathLookup paths;
  /** The file system's Hadoop configuration, read at each create (its umask). */
  private final Supplier<org.apache.hadoop.conf.Configuration> conf;

  /**
   * What a create asks for beyond the path: the permission is stored (less the umask), a smaller block size is
   * followed. Replication is not: Hadoop's tools ask for one replica freely (the contract tests do), and a file
   * gets its bucket's replication, as SCM opens pipelines of that factor only.
   */
  record CreateHints(FsPermission permission, long blockSize) {
  }

  PathCreation(TroposClient client, TopLevels levels, String user, PathLookup paths,
      Supplier<org.apache.hadoop.conf.Configuration> conf) {
    this.client = client;
    this.levels = levels;
    this.user = user;
    this.paths = paths;
    this.conf = conf;
  }

  /** A file whose parent directory must exist already (createNonRecursive). */
  KeyOutputStream fileInExisting(Path path, CreateHints hints, boolean overwrite) throws IOException {
    FileStatus parent = paths.statusOrNull(path.getParent());
    if (parent == null) {
      throw new FileNotFoundException(paths.resolve(path.getParent()) + " does not exist");
    }
    if (parent.isFile()) {
      throw new ParentNotDirectoryException(paths.resolve(path.getParent()) + " is a file");
    }
    return file(path, hints, overwrite, false);
  }

  /** A file, written to its key; with {@code createParents}, missing parents are created first. */
  KeyOutputStream file(Path path, CreateHints hints, boolean overwrite, boolean createParents) throws IOException {
    TroposPath p = paths.resolve(path);
    if (!p.isKey()) {
      throw new FileAlreadyExistsException(p + " is a volume or bucket: a file needs a path inside a bucket");
    }
    FileStatus existing = paths.statusOrNull(path);
    if (existing != null && existing.isDirectory()) {
      throw new FileAlreadyExistsException(p + " is a directory");
    }
    if (existing != null && !overwrite) {
      throw new FileAlreadyExistsException(p + " exists");
    }
    if (createParents) {
      prepareParents(p, path.getParent());
    }
    try {
      OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().setVolume(p.volume()).setBucket(p.bucket())
          .setKey(p.key()).setCreateParents(createParents).setNoOverwrite(!overwrite).setOwner(user);
      if (hints.permission() != null) {
        open.setPermission(hints.permission().applyUMask(FsPermission.getUMask(conf.get())).toShort());
      }
      return client.createKey(open.build(), hints.blockSize() > 0 ? hints.blockSize() : Long.MAX_VALUE);
    } catch (OmException e) {
      throw FsErrors.of(e, p);
    }
  }

  /** A directory with its missing parents (mkdirs); an existing one is fine, an existing file is not. */
  boolean directory(Path path) throws IOException {
    TroposPath p = paths.resolve(path);
    if (p.isRoot()) {
      return true;
    }
    FileStatus existing = paths.statusOrNull(path);
    if (existing != null) {
      if (existing.isFile()) {
        throw new FileAlreadyExistsException(p + " is a file");
      }
      return true;
    }
    prepareParents(p, path.getParent());
    if (p.isKey()) {
      try {
        client.createDirectory(p.volume(), p.bucket(), p.key());
      } catch (OmException e) {
        throw FsErrors.of(e, p);
      }
    }
    return true;
  }

  /**
   * A file cannot be created under a file: found before the write, not at its commit. Creates the volume and
   * bucket unless a directory inside the bucket was found on the way (then they exist).
   */
  private void prepareParents(TroposPath p, Path parent) throws IOException {
    for (Path q = parent; q != null && paths.resolve(q).isKey(); q = q.getParent()) {
      FileStatus status = paths.statusOrNull(q);
      if (status != null) {
        if (status.isFile()) {
          throw new ParentNotDirectoryException(paths.resolve(q) + " is a file");
        }
        return;
      }
    }
    levels.ensureBucket(p);
  }
}
