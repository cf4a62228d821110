package org.tropos.client.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;

/**
 * The levels above the buckets' namespaces, shown as directories: {@code /} holds the volumes, {@code /volume}
 * its buckets. They are created on demand (an FSO bucket for files) and deleted level by level.
 */
final class TopLevels {
  private final TroposClient client;
  private final String user;

  TopLevels(TroposClient client, String user) {
    this.client = client;
    this.user = user;
  }

  /** The status of the root, a volume or a bucket. */
  FileStatus status(Path qualified, TroposPath p) throws OmException {
    if (p.isRoot()) {
      return directory(qualified, 0, "");
    }
    if (p.isVolume()) {
      VolumeInfo v = client.getVolume(p.volume());
      return directory(qualified, v.getModificationTimeMs(), v.getOwner());
    }
    BucketInfo b = client.getBucket(p.volume(), p.bucket());
    return directory(qualified, b.getModificationTimeMs(), b.getOwner());
  }

  /** The volumes (under the root) or the buckets (under a volume). */
  List<FileStatus> list(Path qualified, TroposPath p) throws IOException {
    try {
      List<FileStatus> result = new ArrayList<>();
      if (p.isRoot()) {
        for (VolumeInfo v : client.listVolumes("")) {
          result.add(directory(new Path(qualified, v.getName()), v.getModificationTimeMs(), v.getOwner()));
        }
      } else {
        for (BucketInfo b : client.listBuckets(p.volume(), "")) {
          result.add(directory(new Path(qualified, b.getName()), b.getModificationTimeMs(), b.getOwner()));
        }
      }
      return result;
    } catch (OmException e) {
      throw FsErrors.of(e, p);
    }
  }

  /** Creates the volume and the bucket (FILE_SYSTEM_OPTIMIZED) of {@code p} where missing. */
  void ensureBucket(TroposPath p) throws IOException {
    try {
      try {
        client.getVolume(p.volume());
      } catch (OmException e) {
        if (e.result() != OmResult.VOLUME_NOT_FOUND) {
          throw e;
        }
        createIgnoringRace(() -> client.createVolume(VolumeInfo.newBuilder().setName(p.volume()).setOwner(user)
            .build()));
      }
      if (!p.bucket().isEmpty()) {
        try {
          client.getBucket(p.volume(), p.bucket());
        } catch (OmException e) {
          if (e.result() != OmResult.BUCKET_NOT_FOUND) {
            throw e;
          }
          createIgnoringRace(() -> client.createBucket(BucketInfo.newBuilder().setVolume(p.volume())
              .setName(p.bucket()).setOwner(user).setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build()));
        }
      }
    } catch (OmException e) {
      throw FsErrors.of(e, p);
    }
  }

  @FunctionalInterface
  private interface OmCall {
    void run() throws OmException;
  }

  /** Another client creating the same volume or bucket at the same time is fine. */
  private static void createIgnoringRace(OmCall create) throws OmException {
    try {
      create.run();
    } catch (OmException e) {
      if (e.result() != OmResult.VOLUME_ALREADY_EXISTS && e.result() != OmResult.BUCKET_ALREADY_EXISTS) {
        throw e;
      }
    }
  }

  /**
   * Deletes a bucket, a volume or (its contents only) the root. Recursively: a bucket's top-level entries
   * first (one OM transaction each), a volume's buckets, the root's volumes.
   */
  boolean delete(TroposPath p, boolean recursive) throws IOException, OmException {
    if (p.isBucket()) {
      if (recursive) {
        for (KeyInfo entry : entries(p)) {
          client.deleteKey(p.volume(), p.bucket(), entry.getName(), true);
        }
      }
      client.deleteBucket(p.volume(), p.bucket());
      return true;
    }
    if (p.isVolume()) {
      List<BucketInfo> buckets = client.listBuckets(p.volume(), "");
      if (!buckets.isEmpty() && !recursive) {
        throw new PathIsNotEmptyDirectoryException(p + " holds buckets");
      }
      for (BucketInfo bucket : buckets) {
        delete(new TroposPath(p.volume(), bucket.getName(), ""), true);
      }
      client.deleteVolume(p.volume());
      return true;
    }
    List<VolumeInfo> volumes = client.listVolumes("");
    if (!volumes.isEmpty() && !recursive) {
      throw new PathIsNotEmptyDirectoryException("/ holds volumes");
    }
    for (VolumeInfo volume : volumes) {
      delete(new TroposPath(volume.getName(), "", ""), true);
    }
    return true;
  }

  /** The whole bucket's top-level entries. */
  private List<KeyInfo> entries(TroposPath bucket) throws OmException {
    List<KeyInfo> all = new ArrayList<>();
    String after = "";
    while (true) {
      ListStatusResponse page = client.listStatus(bucket.volume(), bucket.bucket(), "", after,
          Listings.PAGE);
      all.addAll(page.getEntriesList());
      if (!page.getTruncated() || page.getEntriesCount() == 0) {
        return all;
      }
      String last = page.getEntries(page.getEntriesCount() - 1).getName();
      after = last.substring(last.lastIndexOf('/') + 1);
    }
  }

  static FileStatus directory(Path path, long modificationTime, String owner) {
    return new FileStatus(0, true, 0, 0, modificationTime, 0, FsPermission.getDirDefault(), owner, owner, path);
  }
}
