package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.DeleteBlocksCommand;
import org.tropos.proto.scm.DeleteBlocksTransaction;

class ContainerStoreTest {
  private static final int BPC = 16 * 1024;
  private static final PipelineId PIPELINE = PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build();

  @TempDir
  Path root;
  private VolumeSet volumes;
  private ContainerStore store;

  @BeforeEach
  void open() throws IOException {
    volumes = new VolumeSet("dn-test", List.of(root.resolve("d1"), root.resolve("d2")), List.of(root.resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    store = reopen();
  }

  private ContainerStore reopen() throws IOException {
    return reopen(DirectIo.OFF);
  }

  private ContainerStore reopen(DirectIo directIo) throws IOException {
    ContainerStore s = new ContainerStore("dn-test", "CID-1", volumes.dataVolumes(), directIo);
    s.open();
    return s;
  }

  @AfterEach
  void close() {
    store.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Writes {@code data} as chunks of {@code chunk} bytes and commits the block. */
  private BlockData write(BlockId id, byte[] data, int chunk) throws DatanodeException {
    ChecksumData all = ChecksumData.newBuilder().setBytesPerChecksum(BPC).build();
    for (int off = 0; off < data.length; off += chunk) {
      ByteBuffer piece = ByteBuffer.wrap(data, off, Math.min(chunk, data.length - off)).slice();
      ChecksumData sums = Checksums.compute(piece, BPC);
      store.writeChunk(id, off, piece, sums);
      all = Checksums.concat(all.getChecksums().isEmpty() ? sums.toBuilder().clearChecksums().build() : all, sums);
    }
    return store.putBlock(BlockData.newBuilder().setBlockId(id).setLength(data.length).setChecksums(all)
        .setBcsid(7).build());
  }

  private static BlockId block(long container, long local) {
    return BlockId.newBuilder().setContainerId(container).setLocalId(local).build();
  }

  @Test
  void committedBlocksReadBackAndSurviveAReopen() throws Exception {
    store.create(1, PIPELINE);
    byte[] data = random(5 * 1024 * 1024 + 1, 1);
    write(block(1, 100), data, 4 * 1024 * 1024);
    store.close();
    store = reopen();
    ReadPlan plan = store.planRead(block(1, 100), 0, data.length);
    assertEquals(data.length, plan.length());
    byte[] onDisk = Files.readAllBytes(plan.file());
    assertArrayEquals(data, onDisk);
    assertEquals(-1, Checksums.firstMismatch(ByteBuffer.wrap(onDisk), plan.checksums()));
    assertEquals(ContainerState.CONTAINER_OPEN, store.containers().get(0).getState());
  }

  /**
   * New writes are refused (DISK_FULL, naming the key) once a volume has no more free space than it keeps back,
   * for a container already there and for one still to be created; with room they pass.
   */
  @Test
  void writesAreRefusedOnAVolumeWithNoMoreThanItsReserveFree() throws Exception {
    store.create(1, PIPELINE);
    store.checkRoom(1);
    store.checkRoom(2);
    store.close();
    long free = root.toFile().getUsableSpace();
    volumes = new VolumeSet("dn-test", List.of(root.resolve("d1"), root.resolve("d2")), List.of(root.resolve("r")),
        free + (1L << 30));
    store = reopen();
    for (long container : new long[] {1, 2}) {
      DatanodeException refused = assertThrows(DatanodeException.class, () -> store.checkRoom(container));
      assertEquals(DatanodeResult.DISK_FULL, refused.result());
      assertTrue(refused.getMessage().contains("hdds.datanode.volume.min.free.space"), refused.getMessage());
    }
  }

  /**
   * A block's record is written without a WAL: a crash (here: the database's files copied while it is open, what a
   * restart after kill -9 finds) loses it until the records are flushed, as a snapshot does, or the container
   * leaves OPEN; the Raft log replays it meanwhile.
   */
  @Test
  void blockRecordsAreOnDiskOnceFlushedOrOnceTheirContainerLeavesOpen() throws Exception {
    store.create(10, PIPELINE);
    BlockData first = write(block(10, 1), random(1000, 10), 1000);
    assertEquals(List.of(), recordsAfterACrash(block(10, 1)), "not yet durable");
    store.flushBlockRecords();
    assertEquals(List.of(first), recordsAfterACrash(block(10, 1)));

    BlockData second = write(block(10, 2), random(1000, 11), 1000);
    store.setState(10, ContainerState.CONTAINER_CLOSED);
    assertEquals(List.of(second), recordsAfterACrash(block(10, 2)));
  }

  /** The block's record as every volume's database would have it after a crash now. */
  private List<BlockData> recordsAfterACrash(BlockId id) throws IOException {
    List<BlockData> found = new java.util.ArrayList<>();
    List<Path> databases;
    try (java.util.stream.Stream<Path> all = Files.walk(root)) {
      databases = all.filter(p -> p.getFileName().toString().equals("container.db")
          && !p.startsWith(root.resolve("crashed"))).toList();
    }
    for (Path db : databases) {
      Path image = root.resolve("crashed").resolve(UUID.randomUUID().toString());
      Files.createDirectories(image);
      try (java.util.stream.Stream<Path> files = Files.list(db)) {
        for (Path f : files.filter(f -> !f.getFileName().toString().equals("LOCK")).toList()) {
          Files.copy(f, image.resolve(f.getFileName()));
        }
      }
      try (VolumeDb copy = VolumeDb.open(image)) {
        BlockData record = copy.get(id);
        if (record != null) {
          found.add(record);
        }
      }
    }
    return found;
  }

  @Test
  void readsAreWidenedToWholeChecksumPieces() throws Exception {
    store.create(2, PIPELINE);
    byte[] data = random(100_000, 2);
    write(block(2, 1), data, 65_536);
    ReadPlan plan = store.planRead(block(2, 1), 20_000, 30_000);
    assertEquals(16_384, plan.offset());
    assertEquals(65_536 - 16_384, plan.length(), "to the end of the piece holding byte 49,999");
    ByteBuffer range = ByteBuffer.wrap(data, (int) plan.offset(), (int) plan.length()).slice();
    assertEquals(-1, Checksums.firstMismatch(range, plan.checksums()));
    ReadPlan tail = store.planRead(block(2, 1), 99_000, 1_000);
    assertEquals(100_000 - 98_304, tail.length(), "the last piece is short");
    assertEquals(DatanodeResult.RANGE_OUT_OF_BOUNDS,
        assertThrows(DatanodeException.class, () -> store.planRead(block(2, 1), 99_000, 1_001)).result());
  }

  @Test
  void aChunkPastThePageCacheIsCheckedBeforeAByteOfItIsWritten() throws Exception {
    store.close();
    store = reopen(new DirectIo(8192));
    store.create(4, PIPELINE);
    byte[] bytes = random(100_000, 4); // 24 aligned 4 KB pages and a tail of 1,696 bytes
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(bytes), BPC);
    // Read-only heap bytes, as a Raft entry's arrive.
    store.writeChunk(block(4, 1), 0, ByteBuffer.wrap(bytes).asReadOnlyBuffer(), sums);
    store.putBlock(BlockData.newBuilder().setBlockId(block(4, 1)).setLength(bytes.length).setChecksums(sums)
        .setBcsid(3).build());
    Path file = store.planRead(block(4, 1), 0, bytes.length).file();
    assertArrayEquals(bytes, Arrays.copyOf(Files.readAllBytes(file), bytes.length));
    for (int flip : new int[] {5, 99_990}) { // in a direct page, in the tail
      byte[] corrupt = bytes.clone();
      corrupt[flip] ^= 1;
      DatanodeException refused = assertThrows(DatanodeException.class,
          () -> store.writeChunk(block(4, 2), 0, ByteBuffer.wrap(corrupt).asReadOnlyBuffer(), sums));
      assertEquals(DatanodeResult.CHECKSUM_MISMATCH, refused.result());
      assertFalse(Files.exists(file.resolveSibling("2.block")), "nothing written");
    }
  }

  /**
   * A chunk that ends its block file goes past the page cache whole, its tail padded with zeros to a page; one
   * that ends inside bytes written before (a chunk written again, shorter) leaves them as they are.
   */
  @Test
  void aTailPastThePageCacheIsPaddedOnlyWhereTheFileEnds() throws Exception {
    store.close();
    store = reopen(new DirectIo(8192));
    store.create(7, PIPELINE);
    byte[] bytes = random(80_000, 7);
    write(block(7, 1), bytes, bytes.length);
    Path file = store.planRead(block(7, 1), 0, bytes.length).file();
    byte[] stored = Files.readAllBytes(file);
    assertArrayEquals(bytes, Arrays.copyOf(stored, bytes.length));
    assumeTrue(stored.length > bytes.length, "this file system takes no O_DIRECT: every tail is cached");
    assertEquals(81_920, stored.length, "padded to a whole page");
    assertArrayEquals(new byte[81_920 - 80_000], Arrays.copyOfRange(stored, 80_000, 81_920));

    ByteBuffer shorter = ByteBuffer.wrap(bytes, 0, 70_000).slice();
    store.writeChunk(block(7, 1), 0, shorter, Checksums.compute(shorter, BPC));
    assertArrayEquals(stored, Files.readAllBytes(file), "bytes 70,000 on are not padded over");
    ReadPlan whole = store.planRead(block(7, 1), 0, bytes.length);
    assertEquals(-1, Checksums.firstMismatch(ByteBuffer.wrap(stored, 0, (int) whole.length()), whole.checksums()));
  }

  /** A block whose bytes cannot be forced to disk (the chunk fsync fault point) is an I/O error, never committed. */
  @Test
  void aFailedSyncIsAnIoError() throws Exception {
    store.create(8, PIPELINE);
    byte[] bytes = random(10_000, 8);
    ByteBuffer data = ByteBuffer.wrap(bytes);
    store.writeChunk(block(8, 1), 0, data, Checksums.compute(data, BPC));
    try (FaultPoints.Armed armed = FaultPoints.arm(FaultPoints.CHUNK_FSYNC, FaultPoints.failing())) {
      DatanodeException e = assertThrows(DatanodeException.class, () -> store.sync(block(8, 1)));
      assertEquals(DatanodeResult.IO_ERROR, e.result());
    }
    store.sync(block(8, 1));
  }

  @Test
  void corruptChunksClosedContainersAndUnknownBlocksAreRefused() throws Exception {
    store.create(3, PIPELINE);
    ByteBuffer data = ByteBuffer.wrap(random(32_768, 3));
    ChecksumData sums = Checksums.compute(data, BPC);
    data.put(100, (byte) (data.get(100) ^ 0x10));
    DatanodeException corrupt = assertThrows(DatanodeException.class,
        () -> store.writeChunk(block(3, 1), 0, data, sums));
    assertEquals(DatanodeResult.CHECKSUM_MISMATCH, corrupt.result());
    assertEquals(DatanodeResult.NO_SUCH_BLOCK,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(3, 1))).result());
    AtomicInteger changes = new AtomicInteger();
    store.onReplicasChanged(changes::incrementAndGet);
    store.setState(3, ContainerState.CONTAINER_CLOSED);
    assertEquals(1, changes.get(), "told of the move (the datanode reports it to SCM at once)");
    assertEquals(DatanodeResult.CONTAINER_NOT_OPEN, assertThrows(DatanodeException.class,
        () -> store.writeChunk(block(3, 2), 0, ByteBuffer.wrap(new byte[10]), Checksums.compute(
            ByteBuffer.wrap(new byte[10]), BPC))).result());
    assertEquals(DatanodeResult.NO_SUCH_CONTAINER,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(99, 1))).result());
    store.close();
    store = reopen();
    assertEquals(ContainerState.CONTAINER_CLOSED, store.containers().get(0).getState(), "state survives reopen");
  }

  @Test
  void containersSpreadOverVolumesByFreeSpaceAndCreateIsIdempotent() throws Exception {
    store.create(4, PIPELINE);
    store.create(4, PIPELINE);
    store.create(5, PIPELINE);
    assertEquals(2, store.containers().size());
  }

  @Test
  void deletingABlockRemovesItsRowAndFileAndIsIdempotent() throws Exception {
    store.create(6, PIPELINE);
    write(block(6, 1), random(40_000, 6), 16_384);
    write(block(6, 2), random(1_000, 7), 16_384);
    Path file = store.planRead(block(6, 1), 0, 1).file();
    assertTrue(Files.exists(file));
    assertTrue(store.deleteBlocks(6, List.of(1L, 3L), 11), "block 3 never existed: fine");
    assertEquals(DatanodeResult.NO_SUCH_BLOCK,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(6, 1))).result());
    assertFalse(Files.exists(file));
    assertTrue(store.deleteBlocks(6, List.of(1L), 11), "again: nothing left to delete");
    assertFalse(store.deleteBlocks(77, List.of(1L), 12), "a container not held here: the caller decides");
    assertEquals(1_000, store.getBlock(block(6, 2)).getLength(), "the other block is untouched");
    store.deleteBlocks(6, List.of(), 9);
    assertEquals(11, deleteTxIdReported(6), "the highest deletion carried out, an earlier one arriving late kept out");
    store.close();
    store = reopen();
    assertEquals(DatanodeResult.NO_SUCH_BLOCK,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(6, 1))).result());
    assertEquals(11, deleteTxIdReported(6), "kept across a restart");
  }

  private long deleteTxIdReported(long containerId) {
    return store.reports().stream().filter(r -> r.getContainerId() == containerId).findFirst()
        .orElseThrow().getDeleteTxId();
  }

  @Test
  void aBlockDeletedWhileOpenIsNotCommittedAgainByALateOrReplayedPutBlock() throws Exception {
    store.create(7, PIPELINE);
    byte[] data = random(20_000, 8);
    write(block(7, 1), data, 16_384);
    Path file = store.planRead(block(7, 1), 0, 1).file();
    store.deleteBlocks(7, List.of(1L), 1);
    store.close();
    store = reopen();
    DatanodeException replayed = assertThrows(DatanodeException.class, () -> write(block(7, 1), data, 16_384));
    assertEquals(DatanodeResult.NO_SUCH_BLOCK, replayed.result());
    assertFalse(Files.exists(file), "the chunks written again are removed too");
    assertEquals(DatanodeResult.NO_SUCH_BLOCK,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(7, 1))).result());
    assertTrue(store.wasDeleted(block(7, 1)), "remembered while OPEN, also across a restart");
    write(block(7, 2), data, 16_384);
    store.setState(7, ContainerState.CONTAINER_CLOSED);
    assertFalse(store.wasDeleted(block(7, 1)), "forgotten once CLOSED: no PutBlock applies any more");
    store.deleteBlocks(7, List.of(2L), 2);
    assertFalse(store.wasDeleted(block(7, 2)), "nothing to remember for a CLOSED container");
    assertEquals(DatanodeResult.NO_SUCH_BLOCK,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(7, 2))).result(), "closed: deletable too");
  }

  @Test
  void theDeletionHandlerAcknowledgesEveryTransactionItCarriedOutPerContainerAndNoneOfAContainerNotHeld() throws Exception {
    store.create(8, PIPELINE);
    write(block(8, 1), random(100, 9), 16_384);
    try (BlockDeletionHandler handler = new BlockDeletionHandler("dn-test", store)) {
      handler.execute(DeleteBlocksCommand.newBuilder()
          .addTransactions(DeleteBlocksTransaction.newBuilder().setTxId(5).setContainerId(8).addLocalIds(1))
          .addTransactions(DeleteBlocksTransaction.newBuilder().setTxId(6).setContainerId(9).addLocalIds(1))
          .addTransactions(DeleteBlocksTransaction.newBuilder().setTxId(7).setContainerId(8).addLocalIds(2))
          .build());
      assertEquals(List.of(DeleteBlocksAck.newBuilder().setContainerId(8).addTxIds(5).addTxIds(7).build()),
          handler.takeAcks(), "container 9 is not held here: it may be later, so its deletion is not acknowledged");
      assertEquals(List.of(), handler.takeAcks(), "taken once");
    }
    assertEquals(DatanodeResult.NO_SUCH_BLOCK,
        assertThrows(DatanodeException.class, () -> store.getBlock(block(8, 1))).result());
  }
}
