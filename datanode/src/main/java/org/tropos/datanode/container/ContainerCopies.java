package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.io.AtomicFiles;
import org.tropos.common.io.FileTrees;
import org.tropos.proto.datanode.storage.ContainerDescriptor;

/**
 * Where a container copied from another datanode is put together: {@code <volume>/tropos/<clusterId>/tmp/
 * copy-<containerId>-<uuid>/}, outside the directories loaded at start, so a half-made copy is never served. A copy
 * becomes a replica in three steps ({@link ContainerStore#adopt}): its blocks are recorded in the volume's
 * database, its directory is renamed into {@code current/}, and it is registered. A copy interrupted before the
 * rename leaves its staging directory, which the next start removes together with any block records of a
 * container that did not arrive ({@link #removeUnfinished}).
 */
final class ContainerCopies {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerCopies.class);
  private static final String STAGING = "tmp";
  private static final String PREFIX = "copy-";

  private ContainerCopies() {
  }

  /** One container being copied in: its staging directory on a volume. Not thread-safe: one copier. */
  static final class Staging {
    private final Path root;
    private final VolumeDb db;
    private final Path dir;

    private Staging(Path root, VolumeDb db, Path dir) {
      this.root = root;
      this.db = db;
      this.dir = dir;
    }

    static Staging create(Path root, VolumeDb db, long containerId) throws IOException {
      Path dir = root.resolve(STAGING).resolve(PREFIX + containerId + "-" + UUID.randomUUID());
      Files.createDirectories(dir.resolve("chunks"));
      Files.createDirectories(dir.resolve("metadata"));
      return new Staging(root, db, dir);
    }

    /** Where a block's bytes go while the copy is made. */
    Path blockFile(long localId) {
      return dir.resolve("chunks").resolve(localId + ".block");
    }

    Path root() {
      return root;
    }

    VolumeDb db() {
      return db;
    }

    /** Writes the descriptor, syncs the directories and renames the copy to {@code target} in one step. */
    Container moveInto(Path target, ContainerDescriptor descriptor) throws IOException {
      AtomicFiles.write(Container.descriptorFile(dir, descriptor.getContainerId()), descriptor.toByteArray());
      AtomicFiles.syncDirectory(dir.resolve("chunks"));
      Files.createDirectories(target.getParent());
      FaultPoints.hit(FaultPoints.CONTAINER_COPY_RENAME);
      Files.move(dir, target, StandardCopyOption.ATOMIC_MOVE);
      AtomicFiles.syncDirectory(target.getParent());
      return new Container(target, db, descriptor);
    }

    /** Removes the staging directory (a copy that failed, or lost to a replica that arrived meanwhile). */
    void discard() {
      try {
        FileTrees.delete(dir);
      } catch (IOException e) {
        LOG.warn("Cannot remove the unfinished copy {}: {} (the next start removes it)", dir, e.toString());
      }
    }
  }

  /**
   * Removes the staging directories of copies a stop interrupted, and the block records of those whose container
   * this volume does not hold (recorded, then stopped before the rename).
   */
  static void removeUnfinished(Path root, VolumeDb db, Set<Long> held) throws IOException {
    Path staging = root.resolve(STAGING);
    if (!Files.isDirectory(staging)) {
      return;
    }
    try (DirectoryStream<Path> copies = Files.newDirectoryStream(staging, PREFIX + "*")) {
      for (Path copy : copies) {
        String name = copy.getFileName().toString();
        long containerId = Long.parseLong(name.substring(PREFIX.length(), name.indexOf('-', PREFIX.length())));
        if (!held.contains(containerId)) {
          db.deleteContainer(containerId);
        }
        FileTrees.delete(copy);
        LOG.info("Removed {}, a copy of container {} that a stop interrupted", copy, containerId);
      }
    }
  }
}
