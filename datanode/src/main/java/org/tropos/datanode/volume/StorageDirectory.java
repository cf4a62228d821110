package org.tropos.datanode.volume;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.tropos.proto.hdds.RaftLogDirReport;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;

/**
 * One directory the datanode stores into: a data volume or a RaftLog directory, with its health. A directory
 * that fails a check is FAILED for good (until the datanode restarts): it is reported to SCM and kept out of use,
 * while the datanode carries on with the others.
 *
 * <p>Thread-safety: state is written by the disk checker and read by the heartbeat; methods are synchronized.
 */
public final class StorageDirectory {
  private final Path path;
  private StorageState state = StorageState.NORMAL;
  private String failureReason = "";
  private long usedBytes;

  StorageDirectory(Path path) {
    this.path = path;
  }

  public Path path() {
    return path;
  }

  public synchronized boolean isHealthy() {
    return state == StorageState.NORMAL;
  }

  synchronized void fail(String reason) {
    state = StorageState.FAILED;
    failureReason = reason;
  }

  synchronized void setUsedBytes(long used) {
    usedBytes = used;
  }

  /** Bytes in the files under {@code root} (a du); 0 if it does not exist. */
  static long bytesUnder(Path root) throws IOException {
    if (!Files.exists(root)) {
      return 0;
    }
    long[] bytes = {0};
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile()) {
          bytes[0] += attributes.size();
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        // A file deleted while it is counted (RocksDB's temporary files come and go) is no disk failure.
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) {
          throw e;
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return bytes[0];
  }

  synchronized VolumeReport volumeReport() {
    File dir = path.toFile();
    return VolumeReport.newBuilder().setStorageLocation(path.toString()).setState(state)
        .setCapacityBytes(dir.getTotalSpace()).setAvailableBytes(dir.getUsableSpace()).setUsedBytes(usedBytes)
        .setFailureReason(failureReason).build();
  }

  synchronized RaftLogDirReport raftLogDirReport(int groupCount) {
    File dir = path.toFile();
    return RaftLogDirReport.newBuilder().setStorageLocation(path.toString()).setState(state)
        .setCapacityBytes(dir.getTotalSpace()).setAvailableBytes(dir.getUsableSpace())
        .setRaftGroupCount(groupCount).setFailureReason(failureReason).build();
  }
}
