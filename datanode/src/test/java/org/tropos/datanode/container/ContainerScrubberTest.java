package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineId;

/** The scrubber finds a flipped byte and a truncated block file without any reader, and leaves sound data be. */
class ContainerScrubberTest {
  private static final int BPC = 16 * 1024;
  private static final int SIZE = 3 * 1024 * 1024 + 123;

  @TempDir
  Path root;
  private ContainerStore store;
  private final ManualClock clock = new ManualClock();
  private ContainerScrubber scrubber;

  @BeforeEach
  void start() throws Exception {
    VolumeSet volumes = new VolumeSet("dn", List.of(root.resolve("d1")), List.of(root.resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    store = new ContainerStore("dn", "CID-1", volumes.dataVolumes());
    store.open();
    for (long container = 1; container <= 2; container++) {
      store.create(container, PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build());
      for (long local = 1; local <= 2; local++) {
        write(BlockId.newBuilder().setContainerId(container).setLocalId(local).build());
      }
      store.setState(container, ContainerState.CONTAINER_CLOSED);
    }
    scrubber = new ContainerScrubber("dn", store, new ScrubConfig(true, Duration.ofHours(3), Duration.ofDays(7),
        Duration.ofMinutes(15), 1 << 30), clock);
  }

  @AfterEach
  void stop() {
    scrubber.close();
    store.close();
  }

  private void write(BlockId id) throws Exception {
    byte[] data = new byte[SIZE];
    new Random(id.getLocalId()).nextBytes(data);
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), BPC);
    store.writeChunk(id, 0, ByteBuffer.wrap(data), sums);
    store.putBlock(BlockData.newBuilder().setBlockId(id).setLength(SIZE).setChecksums(sums).setBcsid(7).build());
  }

  private Path file(long container, long local) throws Exception {
    return store.planRead(BlockId.newBuilder().setContainerId(container).setLocalId(local).build(), 0, 1).file();
  }

  private ContainerDescriptor descriptor(long container) {
    return store.containers().stream().filter(d -> d.getContainerId() == container).findFirst().orElseThrow();
  }

  @Test
  void aFlippedByteMakesTheReplicaUnhealthyAndASoundOneRecordsItsCheck() throws Exception {
    try (RandomAccessFile raf = new RandomAccessFile(file(1, 2).toFile(), "rw")) {
      raf.seek(2_500_000);
      int b = raf.read();
      raf.seek(2_500_000);
      raf.write(b ^ 0x10);
    }
    scrubber.checkMetadata();
    assertEquals(ContainerState.CONTAINER_CLOSED, descriptor(1).getState(), "the metadata check reads no data");
    scrubber.checkData();
    assertEquals(ContainerState.CONTAINER_UNHEALTHY, descriptor(1).getState());
    assertTrue(descriptor(1).getUnhealthyReason().contains("block 2 does not match its checksum at byte 2490368"),
        descriptor(1).getUnhealthyReason());
    assertEquals(ContainerState.CONTAINER_CLOSED, descriptor(2).getState());
    long checked = descriptor(2).getDataScanEpochMs();
    assertTrue(checked > 0);
    assertEquals(checked, store.reports().stream().filter(r -> r.getContainerId() == 2).findFirst().orElseThrow()
        .getDataScanEpochMs(), "SCM hears when the replica was last verified");
  }

  @Test
  void aTruncatedBlockFileIsFoundByTheMetadataCheck() throws Exception {
    try (RandomAccessFile raf = new RandomAccessFile(file(2, 1).toFile(), "rw")) {
      raf.setLength(SIZE - 1);
    }
    scrubber.checkMetadata();
    assertEquals(ContainerState.CONTAINER_UNHEALTHY, descriptor(2).getState());
    assertTrue(descriptor(2).getUnhealthyReason().contains("fewer than its"), descriptor(2).getUnhealthyReason());
  }

  @Test
  void blocksDeletedByScmAreNoFaultAndAReplicaIsNotCheckedAgainWithinTheMinimumGap() throws Exception {
    store.deleteBlocks(1, List.of(1L), 1);
    scrubber.checkData();
    assertEquals(ContainerState.CONTAINER_CLOSED, descriptor(1).getState());
    long first = descriptor(1).getDataScanEpochMs();
    clock.advance(Duration.ofMinutes(10));
    scrubber.checkData();
    assertEquals(first, descriptor(1).getDataScanEpochMs(), "checked 10 minutes ago: not yet again");
    clock.advance(Duration.ofMinutes(6));
    scrubber.checkData();
    assertTrue(descriptor(1).getDataScanEpochMs() >= first + Duration.ofMinutes(16).toMillis(), "checked again");
  }

  @Test
  void theDataCheckReadsAtItsRate() throws Exception {
    ByteRateThrottle throttle = new ByteRateThrottle(5 << 20, clock);
    long before = clock.monotonicMillis();
    throttle.consumed(5 << 20);
    throttle.consumed(5 << 20);
    assertEquals(2000, clock.monotonicMillis() - before, "10 MB at 5 MB/s take two seconds");
  }
}
