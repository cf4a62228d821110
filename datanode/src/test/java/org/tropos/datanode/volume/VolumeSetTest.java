package org.tropos.datanode.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;

class VolumeSetTest {
  @TempDir
  Path root;
  private final ExecutorService probes = Threads.boundedPool("test-probe", 2, 8);

  @AfterEach
  void stop() {
    Threads.shutdown(probes, Duration.ofSeconds(5));
  }

  private VolumeSet volumes() {
    VolumeSet set = new VolumeSet("dn-test", List.of(root.resolve("d1"), root.resolve("d2")),
        List.of(root.resolve("r1")));
    set.createDirectories();
    return set;
  }

  @Test
  void healthyDirectoriesReportCapacityAndStayClean() throws IOException {
    VolumeSet set = volumes();
    set.checkAll(probes, Duration.ofSeconds(10));
    NodeReport report = set.nodeReport();
    assertEquals(2, report.getVolumesCount());
    assertEquals(1, report.getRaftLogDirsCount());
    for (VolumeReport v : report.getVolumesList()) {
      assertEquals(StorageState.NORMAL, v.getState());
      assertTrue(v.getCapacityBytes() > 0 && v.getAvailableBytes() > 0);
    }
    try (var entries = Files.list(root.resolve("r1"))) {
      assertEquals(0, entries.count(), "the probe leaves no file behind in a RaftLog directory");
    }
  }

  @Test
  void aVolumeThatCannotBeWrittenFailsAndTheOthersCarryOn() throws IOException {
    VolumeSet set = volumes();
    Files.delete(root.resolve("d2"));
    Files.writeString(root.resolve("d2"), "a file where a directory should be");
    set.checkAll(probes, Duration.ofSeconds(10));
    NodeReport report = set.nodeReport();
    assertEquals(StorageState.NORMAL, report.getVolumes(0).getState());
    assertEquals(StorageState.FAILED, report.getVolumes(1).getState());
    assertTrue(report.getVolumes(1).getFailureReason().contains("not a directory"),
        report.getVolumes(1).getFailureReason());
    assertEquals(StorageState.NORMAL, report.getRaftLogDirs(0).getState());
  }

  @Test
  void aVolumeOfAnotherDatanodeIsFailedNotUsed() {
    VolumeSet first = volumes();
    first.format(UUID.randomUUID(), "CID-1");
    VolumeSet second = volumes();
    second.format(UUID.randomUUID(), "CID-1");
    assertTrue(second.nodeReport().getVolumes(0).getFailureReason().contains("belongs to datanode"));
    assertEquals(StorageState.FAILED, second.nodeReport().getVolumes(1).getState());
  }

  @Test
  void formattingIsRepeatableForTheSameNode() {
    UUID me = UUID.randomUUID();
    volumes().format(me, "CID-1");
    VolumeSet again = volumes();
    again.format(me, "CID-1");
    assertEquals(StorageState.NORMAL, again.nodeReport().getVolumes(0).getState());
    assertTrue(Files.isDirectory(root.resolve("d1/tropos/CID-1/current")));
  }
}
