package org.tropos.datanode.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
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
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.FixedKeyRing;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.ManualClock;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.DirectIo;
import org.tropos.datanode.container.EcReplicas;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.datanode.security.ReadPortTls;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.ReadBlockRequest;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;

/** Writes to erasure-coded replicas over the block port's real socket, into a real container store. */
class EcWriteRequestsTest {
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-64k");
  private static final int BPC = 16 * 1024;
  private static final BlockId BLOCK = BlockId.newBuilder().setContainerId(7).setLocalId(1).build();
  private static final BlockToken NO_TOKEN = BlockToken.getDefaultInstance();

  @TempDir
  Path root;
  private ContainerStore store;
  private final byte[] cell = new byte[64 * 1024];

  @BeforeEach
  void openStore() throws Exception {
    VolumeSet volumes = new VolumeSet("dn-ec", List.of(root.resolve("d")), List.of(root.resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    store = new ContainerStore("dn-ec", "CID-1", volumes.dataVolumes());
    store.open();
    new Random(3).nextBytes(cell);
  }

  @AfterEach
  void closeStore() {
    store.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  @Test
  void aCellWrittenAndCommittedIsReadBackFromTheReplicaOfItsIndex() throws Exception {
    try (BlockReadServer server = start(BlockAccess.OPEN); BlockReadClient client = connect(server)) {
      client.writeEc(chunk(2, BLOCK, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell));
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      assertEquals(cell.length, client.read(BLOCK, 0, cell.length, NO_TOKEN, b -> {
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        read.writeBytes(bytes);
      }));
      assertArrayEquals(cell, read.toByteArray());
    }
    assertEquals(2, store.descriptor(7).orElseThrow().getReplicaIndex());
    assertEquals(RS_3_2.toProto(), store.descriptor(7).orElseThrow().getEc());
    assertEquals(3L * cell.length, store.getBlock(BLOCK).getGroupLength());
    ContainerReport report = store.reports().get(0);
    assertEquals(2, report.getReplicaIndex());
    assertEquals(1, report.getBlockCount());
  }

  /** A writer commits each stripe: every commit extends the block, its checksums after those committed. */
  @Test
  void eachCommittingChunkExtendsTheBlockFromWhereTheCommittedBytesEnd() throws Exception {
    byte[] second = new byte[1000];
    new Random(4).nextBytes(second);
    try (BlockReadServer server = start(BlockAccess.OPEN); BlockReadClient client = connect(server)) {
      client.writeEc(chunk(1, BLOCK, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell));
      DatanodeException e = assertThrows(DatanodeException.class, () -> client.writeEc(chunk(1, BLOCK,
          2L * cell.length, second, true), NO_TOKEN, ByteBuffer.wrap(second)));
      assertEquals(DatanodeResult.INVALID_REQUEST, e.result());
      assertTrue(e.getMessage().contains("must start there"), e.getMessage());
      client.writeEc(chunk(1, BLOCK, cell.length, second, true), NO_TOKEN, ByteBuffer.wrap(second));
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      client.read(BLOCK, 0, cell.length + second.length, NO_TOKEN, b -> {
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        read.writeBytes(bytes);
      });
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      expected.writeBytes(cell);
      expected.writeBytes(second);
      assertArrayEquals(expected.toByteArray(), read.toByteArray());
    }
    assertEquals(cell.length + second.length, store.getBlock(BLOCK).getLength());
  }

  /** A group smaller than a stripe leaves later data indexes empty: they get their replica and an empty block. */
  @Test
  void anEmptyIndexIsCommittedByAPutBlockAlone() throws Exception {
    try (BlockReadServer server = start(BlockAccess.OPEN); BlockReadClient client = connect(server)) {
      client.writeEc(EcWrite.newBuilder().setEc(RS_3_2.toProto()).setReplicaIndex(3).setPutBlock(PutBlock
          .newBuilder().setBlockId(BLOCK).setLength(0).setGroupLength(100).setChecksums(ChecksumData.newBuilder()
              .setBytesPerChecksum(BPC))).build(), NO_TOKEN, ByteBuffer.allocate(0));
    }
    assertEquals(0, store.getBlock(BLOCK).getLength());
    assertEquals(100, store.getBlock(BLOCK).getGroupLength());
    assertEquals(3, store.reports().get(0).getReplicaIndex());
  }

  @Test
  void writesNamingAnotherIndexCorruptOrPastTheCloseChangeNothing() throws Exception {
    BlockId other = BLOCK.toBuilder().setLocalId(2).build();
    try (BlockReadServer server = start(BlockAccess.OPEN); BlockReadClient client = connect(server)) {
      client.writeEc(chunk(2, BLOCK, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell));

      DatanodeException e = assertThrows(DatanodeException.class,
          () -> client.writeEc(chunk(3, other, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell)));
      assertEquals(DatanodeResult.INVALID_REQUEST, e.result());
      assertTrue(e.getMessage().contains("holds index 2 of rs-3-2-64k, not index 3"), e.getMessage());

      byte[] flipped = cell.clone();
      flipped[100] ^= 1;
      e = assertThrows(DatanodeException.class,
          () -> client.writeEc(chunk(2, other, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(flipped)));
      assertEquals(DatanodeResult.CHECKSUM_MISMATCH, e.result());

      new EcReplicas(store).close(7);
      e = assertThrows(DatanodeException.class,
          () -> client.writeEc(chunk(2, other, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell)));
      assertEquals(DatanodeResult.CONTAINER_NOT_OPEN, e.result());
    }
    assertEquals(ContainerState.CONTAINER_CLOSED, store.state(7));
    assertEquals(DatanodeResult.NO_SUCH_BLOCK, assertThrows(DatanodeException.class, () -> store.getBlock(
        BLOCK.toBuilder().setLocalId(2).build())).result(), "no refused write left a block");
    assertEquals(1, store.reports().get(0).getBlockCount());
  }

  /**
   * Told to close a container it holds no replica of (no cell reached it), a member makes an empty CLOSED replica of
   * its index, so the container can close; a write arriving after is refused and leaves nothing.
   */
  @Test
  void aMemberNoCellReachedClosesAnEmptyReplicaOfItsIndex() throws Exception {
    new EcReplicas(store).closeEmpty(7, RS_3_2.toProto(), 4);
    assertEquals(ContainerState.CONTAINER_CLOSED, store.state(7));
    assertEquals(4, store.reports().get(0).getReplicaIndex());
    assertEquals(0, store.reports().get(0).getBlockCount());
    try (BlockReadServer server = start(BlockAccess.OPEN); BlockReadClient client = connect(server)) {
      DatanodeException e = assertThrows(DatanodeException.class,
          () -> client.writeEc(chunk(4, BLOCK, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell)));
      assertEquals(DatanodeResult.CONTAINER_NOT_OPEN, e.result());
    }
    assertEquals(0, store.reports().get(0).getBlockCount());
  }

  @Test
  void aSecureServerWritesOnlyForTheBearerOfTheBlocksWriteToken() throws Exception {
    ManualClock clock = new ManualClock();
    BlockTokens tokens = BlockTokens.signedWith(new FixedKeyRing(SecretKey.generate(clock.wallTime(),
        Duration.ofDays(2))), Duration.ofHours(1), clock);
    BlockToken write = tokens.issue("alice", BLOCK, List.of(AccessMode.ACCESS_WRITE));
    BlockToken read = tokens.issue("alice", BLOCK, List.of(AccessMode.ACCESS_READ));
    BlockToken forged = BlockTokens.signedWith(new FixedKeyRing(SecretKey.generate(clock.wallTime(),
        Duration.ofDays(2))), Duration.ofHours(1), clock).issue("mallory", BLOCK, List.of(AccessMode.ACCESS_WRITE));
    BlockToken otherBlock = tokens.issue("alice", BLOCK.toBuilder().setLocalId(9).build(),
        List.of(AccessMode.ACCESS_WRITE));
    try (BlockReadServer server = start(new BlockAccess(tokens, "dn")); BlockReadClient client = connect(server)) {
      for (BlockToken refused : List.of(NO_TOKEN, read, forged, otherBlock)) {
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
            () -> client.writeEc(chunk(1, BLOCK, 0, cell, true), refused, ByteBuffer.wrap(cell))).result());
      }
      assertFalse(store.descriptor(7).isPresent(), "no replica made for a refused write");
      client.writeEc(chunk(1, BLOCK, 0, cell, true), write, ByteBuffer.wrap(cell));
      clock.advance(Duration.ofHours(1));
      assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
          () -> client.writeEc(putBlock(1, BLOCK, cell.length), write, ByteBuffer.allocate(0))).result(),
          "an expired token writes nothing");
    }
  }

  @Test
  void aServerOfReadsOnlyRefusesWritesAndABadFrameClosesNothingElse() throws Exception {
    try (BlockReadServer server = new BlockReadServer("reads-only", new HostPort("127.0.0.1", 0), store::planRead,
        BlockTransfer.ZERO_COPY, DirectIo.OFF, BlockAccess.OPEN, ReadPortTls.of(TransportSecurity.plaintext()))) {
      server.start();
      try (BlockReadClient client = connect(server)) {
        assertEquals(DatanodeResult.INVALID_REQUEST, assertThrows(DatanodeException.class,
            () -> client.writeEc(chunk(1, BLOCK, 0, cell, true), NO_TOKEN, ByteBuffer.wrap(cell))).result());
      }
      // A chunk longer than a cell can be: the connection is closed, nothing is written.
      try (Socket raw = new Socket("127.0.0.1", server.port())) {
        byte[] request = ReadBlockRequest.newBuilder().setEcWrite(EcWrite.newBuilder().setEc(RS_3_2.toProto())
            .setReplicaIndex(1).setChunk(WriteChunk.newBuilder().setBlockId(BLOCK).setLength(1L << 40)))
            .build().toByteArray();
        OutputStream out = raw.getOutputStream();
        out.write(ByteBuffer.allocate(4).putInt(request.length).array());
        out.write(request);
        out.flush();
        raw.setSoTimeout(10_000);
        InputStream in = raw.getInputStream();
        assertEquals(-1, in.read(), "the server closed the connection");
      }
    }
    assertFalse(store.descriptor(7).isPresent());
  }

  private BlockReadServer start(BlockAccess access) throws IOException {
    BlockReadServer server = new BlockReadServer("ec-test", new HostPort("127.0.0.1", 0), new ContainerReads(store),
        BlockTransfer.ZERO_COPY, DirectIo.OFF, access, ReadPortTls.of(TransportSecurity.plaintext()));
    server.start();
    return server;
  }

  private static BlockReadClient connect(BlockReadServer server) throws IOException {
    return new BlockReadClient(new HostPort("127.0.0.1", server.port()), Duration.ofSeconds(10));
  }

  /** A chunk of {@code bytes} at {@code offset} of {@code index}'s block, committing through it if {@code last}. */
  private static EcWrite chunk(int index, BlockId block, long offset, byte[] bytes, boolean last) {
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(bytes), BPC);
    WriteChunk.Builder chunk = WriteChunk.newBuilder().setBlockId(block).setOffset(offset).setLength(bytes.length)
        .setChecksums(sums);
    if (last) {
      // Length and checksums come from the datanode; the group holds three times this index's bytes.
      chunk.setCommit(PutBlock.newBuilder().setBlockId(block).setGroupLength(3 * (offset + bytes.length)));
    }
    return EcWrite.newBuilder().setEc(RS_3_2.toProto()).setReplicaIndex(index).setChunk(chunk).build();
  }

  private EcWrite putBlock(int index, BlockId block, long length) {
    return EcWrite.newBuilder().setEc(RS_3_2.toProto()).setReplicaIndex(index).setPutBlock(PutBlock.newBuilder()
        .setBlockId(block).setLength(length).setChecksums(Checksums.compute(ByteBuffer.wrap(cell), BPC))
        .setGroupLength(3 * length)).build();
  }
}
