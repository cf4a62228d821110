package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.ec.ErasureCoder;
import org.tropos.common.ec.StripeLayout;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.datanode.read.BlockReadServer;
import org.tropos.datanode.read.BlockTransfer;
import org.tropos.datanode.read.ContainerReads;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ChecksumType;
import org.tropos.proto.hdds.ContainerState;

/**
 * Lost indexes of a closed erasure-coded container rebuilt on another datanode's store from the other indexes'
 * read servers over real sockets: every block bit-exact with what the index held, a corrupt source passed over,
 * too few sources leaving nothing behind.
 */
class EcReconstructorTest {
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-4k");
  private static final long CONTAINER = 9;
  private static final int BPC = 1024;
  /** Group lengths: several whole stripes and a partial one, a partial first stripe, under one cell. */
  private static final long[] GROUPS = {5 * 12 * 1024 + 5000, 7000, 100};

  @TempDir
  Path root;
  private final List<ContainerStore> stores = new ArrayList<>();
  private final List<BlockReadServer> servers = new ArrayList<>();
  private ContainerStore target;

  @BeforeEach
  void writeGroups() throws Exception {
    for (int unit = 0; unit < RS_3_2.units(); unit++) {
      ContainerStore store = open("dn" + (unit + 1));
      stores.add(store);
      BlockReadServer server = new BlockReadServer("ec-source-" + unit, new HostPort("127.0.0.1", 0),
          new ContainerReads(store), BlockTransfer.ZERO_COPY);
      server.start();
      servers.add(server);
    }
    for (int g = 0; g < GROUPS.length; g++) {
      writeGroup(g + 1, GROUPS[g]);
    }
    for (ContainerStore store : stores) {
      new EcReplicas(store).close(CONTAINER);
    }
    target = open("target");
  }

  @AfterEach
  void stop() {
    servers.forEach(BlockReadServer::close);
    stores.forEach(ContainerStore::close);
    target.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  @Test
  void everyIndexIsRebuiltBitExactFromTheOthers() throws Exception {
    for (int index = 1; index <= RS_3_2.units(); index++) {
      ContainerStore rebuiltOn = index == 1 ? target : open("target" + index);
      try {
        reconstructor(rebuiltOn).reconstruct(CONTAINER, RS_3_2, index, sourcesBut(index));
        assertEquals(ContainerState.CONTAINER_CLOSED, rebuiltOn.state(CONTAINER));
        assertEquals(index, rebuiltOn.descriptor(CONTAINER).orElseThrow().getReplicaIndex());
        assertEquals(RS_3_2.toProto(), rebuiltOn.descriptor(CONTAINER).orElseThrow().getEc());
        for (int g = 1; g <= GROUPS.length; g++) {
          BlockId block = block(g);
          assertArrayEquals(bytes(stores.get(index - 1), block), bytes(rebuiltOn, block), "index " + index
              + " of group " + g);
          assertEquals(stores.get(index - 1).getBlock(block).getChecksums(), rebuiltOn.getBlock(block)
              .getChecksums(), "index " + index + " of group " + g + ": the same checksums");
          assertEquals(GROUPS[g - 1], rebuiltOn.getBlock(block).getGroupLength());
        }
      } finally {
        if (rebuiltOn != target) {
          rebuiltOn.close();
        }
      }
    }
  }

  @Test
  void aCorruptSourceIsPassedOverAndTooFewSourcesLeaveNothingBehind() throws Exception {
    corrupt(stores.get(0), block(1));
    reconstructor(target).reconstruct(CONTAINER, RS_3_2, 2, sourcesBut(2));
    assertArrayEquals(bytes(stores.get(1), block(1)), bytes(target, block(1)),
        "rebuilt from indexes 3, 4 and 5 once index 1 served a corrupt cell");

    ContainerStore other = open("other");
    try {
      Map<Integer, HostPort> three = sourcesBut(3);
      three.remove(4);
      DatanodeException e = assertThrows(DatanodeException.class,
          () -> reconstructor(other).reconstruct(CONTAINER, RS_3_2, 3, three));
      assertTrue(e.getMessage().contains("only 2 of the 3"), e.getMessage());
      assertFalse(other.descriptor(CONTAINER).isPresent());
      try (Stream<Path> staged = Files.list(root.resolve("other/d/tropos/CID-1/tmp"))) {
        assertEquals(0, staged.count(), "the partial rebuild is removed");
      }
    } finally {
      other.close();
    }
  }

  private EcReconstructor reconstructor(ContainerStore store) {
    return new EcReconstructor("dn-target", store, Duration.ofSeconds(10), BlockAccess.OPEN,
        TransportSecurity.plaintext());
  }

  /** Every index's read server but {@code lost}'s. */
  private Map<Integer, HostPort> sourcesBut(int lost) {
    Map<Integer, HostPort> sources = new LinkedHashMap<>();
    for (int index = 1; index <= RS_3_2.units(); index++) {
      if (index != lost) {
        sources.put(index, new HostPort("127.0.0.1", servers.get(index - 1).port()));
      }
    }
    return sources;
  }

  /** Stripes a group of {@code length} random bytes over the stores as a writer does, a stripe per commit. */
  private void writeGroup(long localId, long length) throws DatanodeException {
    byte[] data = new byte[(int) length];
    new Random(localId).nextBytes(data);
    StripeLayout layout = RS_3_2.layout();
    EcReplicas[] replicas = stores.stream().map(EcReplicas::new).toArray(EcReplicas[]::new);
    long[] written = new long[RS_3_2.units()];
    try (ErasureCoder coder = new ErasureCoder(RS_3_2)) {
      for (long s = 0; s < layout.stripes(length); s++) {
        ByteBuffer[] cells = new ByteBuffer[RS_3_2.units()];
        for (int u = 0; u < RS_3_2.data(); u++) {
          int cell = layout.cellLength(s, u, length);
          cells[u] = cell == 0 ? ByteBuffer.allocate(0)
              : ByteBuffer.wrap(data, (int) (s * RS_3_2.stripeSize() + (long) u * RS_3_2.cellSize()), cell).slice();
        }
        ByteBuffer[] parity = {ByteBuffer.allocate(cells[0].remaining()), ByteBuffer.allocate(cells[0].remaining())};
        coder.encode(java.util.Arrays.copyOf(cells, RS_3_2.data()), parity);
        cells[3] = parity[0];
        cells[4] = parity[1];
        long groupSoFar = Math.min(length, (s + 1) * RS_3_2.stripeSize());
        for (int u = 0; u < RS_3_2.units(); u++) {
          if (cells[u].hasRemaining()) {
            replicas[u].write(chunk(u + 1, block(localId), written[u], cells[u], groupSoFar), cells[u].duplicate());
            written[u] += cells[u].remaining();
          }
        }
      }
    }
    for (int u = 0; u < RS_3_2.units(); u++) {
      if (written[u] == 0) {
        replicas[u].write(EcWrite.newBuilder().setEc(RS_3_2.toProto()).setReplicaIndex(u + 1).setPutBlock(
            PutBlock.newBuilder().setBlockId(block(localId)).setGroupLength(length).setChecksums(
                ChecksumData.newBuilder().setType(ChecksumType.CRC32C).setBytesPerChecksum(BPC))).build(),
            ByteBuffer.allocate(0));
      }
    }
  }

  private static EcWrite chunk(int index, BlockId block, long offset, ByteBuffer cell, long groupLength) {
    return EcWrite.newBuilder().setEc(RS_3_2.toProto()).setReplicaIndex(index).setChunk(WriteChunk.newBuilder()
        .setBlockId(block).setOffset(offset).setLength(cell.remaining()).setChecksums(Checksums.compute(cell, BPC))
        .setCommit(PutBlock.newBuilder().setBlockId(block).setGroupLength(groupLength))).build();
  }

  private static BlockId block(long localId) {
    return BlockId.newBuilder().setContainerId(CONTAINER).setLocalId(localId).build();
  }

  private static byte[] bytes(ContainerStore store, BlockId block) throws Exception {
    long length = store.getBlock(block).getLength();
    if (length == 0) {
      return new byte[0];
    }
    ReadPlan plan = store.planRead(block, 0, length);
    byte[] all = Files.readAllBytes(plan.file());
    return java.util.Arrays.copyOf(all, (int) length);
  }

  /** Flips a byte of a block's file, as a bad disk would. */
  private static void corrupt(ContainerStore store, BlockId block) throws IOException, DatanodeException {
    Path file = store.planRead(block, 0, 1).file();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, 10);
      one.put(0, (byte) (one.get(0) ^ 1)).position(0);
      channel.write(one, 10);
    }
  }

  private ContainerStore open(String name) throws IOException {
    VolumeSet volumes = new VolumeSet(name, List.of(root.resolve(name).resolve("d")),
        List.of(root.resolve(name).resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    ContainerStore store = new ContainerStore(name, "CID-1", volumes.dataVolumes());
    store.open();
    return store;
  }
}
