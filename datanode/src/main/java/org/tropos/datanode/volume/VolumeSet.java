package org.tropos.datanode.volume;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.io.FileTrees;
import org.tropos.common.io.VersionedProperties;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.VolumeReport;

/**
 * The datanode's data volumes and RaftLog directories, their health and their reports.
 *
 * <p>Each data volume holds {@code tropos/VERSION} (layout 1: datanodeUuid, clusterId), written when the node
 * first joins a cluster, and {@code tropos/<clusterId>/current/} for containers. A volume whose VERSION names
 * another datanode or cluster is failed rather than used: it was moved from another node.
 *
 * <p>Thread-safety: the lists are fixed at construction; each directory guards its own state.
 */
public final class VolumeSet {
  private static final Logger LOG = LoggerFactory.getLogger(VolumeSet.class);
  private static final int LAYOUT_VERSION = 1;

  private final String nodeName;
  private final List<StorageDirectory> dataVolumes;
  private final List<StorageDirectory> raftLogDirs;

  /** With no space reserved on the data volumes beyond their block databases' room. */
  public VolumeSet(String nodeName, List<Path> dataDirs, List<Path> raftLogDirPaths) {
    this(nodeName, dataDirs, raftLogDirPaths, 0);
  }

  /**
   * @param reservedBytes free space kept back on each data volume (hdds.datanode.volume.min.free.space), to which
   *     the room of its block database is added
   */
  public VolumeSet(String nodeName, List<Path> dataDirs, List<Path> raftLogDirPaths, long reservedBytes) {
    this.nodeName = nodeName;
    this.dataVolumes = dataDirs.stream().map(d -> new StorageDirectory(d,
        reservedBytes + StorageDirectory.METADATA_ROOM)).toList();
    this.raftLogDirs = raftLogDirPaths.stream().map(d -> new StorageDirectory(d, 0)).toList();
  }

  /** Creates missing directories; one that cannot be created is failed, not fatal. */
  public void createDirectories() {
    for (StorageDirectory dir : all()) {
      try {
        Files.createDirectories(dir.path());
      } catch (IOException e) {
        fail(dir, "cannot create it: " + e);
      }
    }
  }

  /** Binds every healthy data volume to this datanode and cluster, or fails those bound to others. */
  public void format(UUID datanodeUuid, String clusterId) {
    for (StorageDirectory volume : dataVolumes) {
      if (!volume.isHealthy()) {
        continue;
      }
      try {
        formatVolume(volume.path(), datanodeUuid, clusterId).ifPresent(reason -> fail(volume, reason));
      } catch (IOException e) {
        fail(volume, "cannot write its VERSION file: " + e);
      }
    }
  }

  private static Optional<String> formatVolume(Path root, UUID uuid, String clusterId) throws IOException {
    Path versionFile = root.resolve("tropos").resolve("VERSION");
    Optional<Map<String, String>> stored = VersionedProperties.read(versionFile, LAYOUT_VERSION);
    if (stored.isPresent()) {
      String owner = stored.get().get("datanodeUuid");
      String cluster = stored.get().get("clusterId");
      if (!uuid.toString().equals(owner) || !clusterId.equals(cluster)) {
        return Optional.of("it belongs to datanode " + owner + " of cluster " + cluster);
      }
    } else {
      Map<String, String> values = new HashMap<>();
      values.put("datanodeUuid", uuid.toString());
      values.put("clusterId", clusterId);
      VersionedProperties.write(versionFile, LAYOUT_VERSION, values, "Tropos data volume");
    }
    Files.createDirectories(root.resolve("tropos").resolve(clusterId).resolve("current"));
    return Optional.empty();
  }

  /**
   * Probes every healthy directory on {@code probes} and fails those whose probe errs or takes longer than
   * {@code timeout}; refreshes the used bytes of data volumes.
   */
  public void checkAll(ExecutorService probes, Duration timeout) {
    for (StorageDirectory dir : all()) {
      if (!dir.isHealthy()) {
        continue;
      }
      Future<Long> probe;
      try {
        probe = probes.submit(() -> {
          DiskProbe.check(dir.path());
          return dataVolumes.contains(dir) ? FileTrees.regularFileBytes(dir.path().resolve("tropos")) : 0L;
        });
      } catch (RejectedExecutionException e) {
        fail(dir, "no thread left to check it: earlier disk checks still hang");
        continue;
      }
      try {
        dir.setUsedBytes(probe.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
      } catch (ExecutionException e) {
        if (OutOfSpace.causes(e.getCause())) {
          // Full, not failing: it still serves what it holds, and reports no room for writes.
          LOG.warn("{}: directory {} is full; its disk check could not write a file", nodeName, dir.path());
          continue;
        }
        fail(dir, "disk check failed: " + e.getCause());
      } catch (TimeoutException e) {
        probe.cancel(true);
        fail(dir, "disk check did not finish within " + timeout);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  public NodeReport nodeReport() {
    return nodeReport(Map.of(), Map.of());
  }

  /**
   * @param groupsPerLogDir Raft groups in each RaftLog directory (missing = none)
   * @param blockBytes the bytes of the blocks each data volume holds, as the container store counts them (kept
   *     current, unlike the disk check's walk of the volume, which runs at start and every check interval)
   */
  public NodeReport nodeReport(Map<Path, Integer> groupsPerLogDir, Map<Path, Long> blockBytes) {
    NodeReport.Builder report = NodeReport.newBuilder();
    dataVolumes.forEach(v -> {
      VolumeReport volume = v.volumeReport();
      Long counted = blockBytes.get(v.path());
      report.addVolumes(counted == null ? volume : volume.toBuilder().setUsedBytes(counted).build());
    });
    raftLogDirs.forEach(d -> report.addRaftLogDirs(d.raftLogDirReport(groupsPerLogDir.getOrDefault(d.path(), 0))));
    return report.build();
  }

  /** RaftLog directories that passed their checks so far. */
  public List<Path> healthyRaftLogDirs() {
    return raftLogDirs.stream().filter(StorageDirectory::isHealthy).map(StorageDirectory::path).toList();
  }

  public List<StorageDirectory> dataVolumes() {
    return dataVolumes;
  }

  public List<StorageDirectory> raftLogDirs() {
    return raftLogDirs;
  }

  private List<StorageDirectory> all() {
    List<StorageDirectory> all = new ArrayList<>(dataVolumes);
    all.addAll(raftLogDirs);
    return all;
  }

  private void fail(StorageDirectory dir, String reason) {
    dir.fail(reason);
    LOG.error("{}: directory {} FAILED and is out of service: {}", nodeName, dir.path(), reason);
  }
}
