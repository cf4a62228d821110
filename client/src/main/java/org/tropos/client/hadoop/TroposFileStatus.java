package org.tropos.client.hadoop;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.tropos.proto.om.KeyInfo;

/**
 * A file's status with its etag: the OM's object id of the file, new with every write (an overwrite included)
 * and kept by a rename, which moves the same file.
 */
final class TroposFileStatus extends FileStatus implements EtagSource {
  private static final long serialVersionUID = 1L;
  private final String etag;

  TroposFileStatus(Path path, KeyInfo key, long blockSize) {
    super(key.getSize(), false, key.getFactor().getNumber(), blockSize, key.getModificationTimeMs(),
        key.getAccessTimeMs(), key.getPermission() == 0 ? FsPermission.getFileDefault()
            : new FsPermission((short) key.getPermission()), key.getOwner(),
        key.getGroup().isEmpty() ? key.getOwner() : key.getGroup(), path);
    this.etag = Long.toHexString(key.getObjectId());
  }

  @Override
  public String getEtag() {
    return etag;
  }

  /** The same with its block locations, for listLocatedStatus and listFiles. */
  static final class Located extends LocatedFileStatus implements EtagSource {
    private static final long serialVersionUID = 1L;
    private final String etag;

    Located(FileStatus status, BlockLocation[] locations) {
      super(status, locations);
      this.etag = status instanceof EtagSource e ? e.getEtag() : null;
    }

    @Override
    public String getEtag() {
      return etag;
    }
  }
}
