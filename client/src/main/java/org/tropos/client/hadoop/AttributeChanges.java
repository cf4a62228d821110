package org.tropos.client.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.SetFileAttributesRequest;

/**
 * Hadoop's setTimes, setPermission and setOwner as the OM's SetFileAttributes: one call each, what Hadoop leaves
 * unset (-1, null) left as it is. Volumes and buckets keep their own attributes, changed through tropos sh.
 */
final class AttributeChanges {
  private final TroposClient client;
  private final PathLookup paths;

  AttributeChanges(TroposClient client, PathLookup paths) {
    this.client = client;
    this.paths = paths;
  }

  /** A negative time leaves it as it is. */
  void times(Path path, long mtime, long atime) throws IOException {
    SetFileAttributesRequest.Builder r = attributes(path);
    if (mtime >= 0) {
      r.setModificationTimeMs(mtime);
    }
    if (atime >= 0) {
      r.setAccessTimeMs(atime);
    }
    set(path, r);
  }

  void permission(Path path, FsPermission permission) throws IOException {
    set(path, attributes(path).setPermission(permission.toShort()));
  }

  /** null leaves the owner or the group as it is. */
  void owner(Path path, String owner, String group) throws IOException {
    SetFileAttributesRequest.Builder r = attributes(path);
    if (owner != null) {
      r.setOwner(owner);
    }
    if (group != null) {
      r.setGroup(group);
    }
    set(path, r);
  }

  private SetFileAttributesRequest.Builder attributes(Path path) throws IOException {
    TroposPath p = paths.resolve(path);
    if (!p.isKey()) {
      throw new IOException(p + ": volumes and buckets keep their own attributes (tropos sh)");
    }
    return SetFileAttributesRequest.newBuilder().setVolume(p.volume()).setBucket(p.bucket()).setPath(p.key());
  }

  private void set(Path path, SetFileAttributesRequest.Builder request) throws IOException {
    try {
      client.setFileAttributes(request.build());
    } catch (OmException e) {
      if (FsErrors.notFound(e)) {
        throw new FileNotFoundException(paths.resolve(path) + ": no such file or directory");
      }
      throw FsErrors.of(e, paths.resolve(path));
    }
  }
}
