package org.tropos.datanode.volume;

import java.io.File;
import java.nio.file.Path;
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
  /**
   * A data volume's last bytes, kept for its block database whatever else is kept back: chunks never take them, and
   * against anything else filling the file system the database holds them in a file of its own (the container
   * package's MetadataReserve).
   */
  public static final long METADATA_ROOM = 8 << 20;
  private final Path path;
  /** Free space kept back for writes already accepted (data volumes); 0 for RaftLog directories. */
  private final long reservedBytes;
  private StorageState state = StorageState.NORMAL;
  private String failureReason = "";
  private long usedBytes;

  StorageDirectory(Path path, long reservedBytes) {
    this.path = path;
    this.reservedBytes = reservedBytes;
  }

  public Path path() {
    return path;
  }

  public synchronized boolean isHealthy() {
    return state == StorageState.NORMAL;
  }

  /** Healthy, with more than its reserve available: may take new writes. */
  public boolean hasRoom() {
    return isHealthy() && availableBytes() > reservedBytes;
  }

  public long availableBytes() {
    return path.toFile().getUsableSpace();
  }

  public long reservedBytes() {
    return reservedBytes;
  }

  synchronized void fail(String reason) {
    state = StorageState.FAILED;
    failureReason = reason;
  }

  synchronized void setUsedBytes(long used) {
    usedBytes = used;
  }

  synchronized VolumeReport volumeReport() {
    File dir = path.toFile();
    return VolumeReport.newBuilder().setStorageLocation(path.toString()).setState(state)
        .setCapacityBytes(dir.getTotalSpace()).setAvailableBytes(dir.getUsableSpace()).setUsedBytes(usedBytes)
        .setReservedBytes(reservedBytes).setFailureReason(failureReason).build();
  }

  synchronized RaftLogDirReport raftLogDirReport(int groupCount) {
    File dir = path.toFile();
    return RaftLogDirReport.newBuilder().setStorageLocation(path.toString()).setState(state)
        .setCapacityBytes(dir.getTotalSpace()).setAvailableBytes(dir.getUsableSpace())
        .setRaftGroupCount(groupCount).setFailureReason(failureReason).build();
  }
}
