package org.tropos.datanode.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.conf.Configuration;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.io.ByteSink;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.LocalBlockSource;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.FixedKeyRing;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.DirectIo;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.datanode.security.ReadPortTls;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.PipelineId;

/** The read server and the verifying client over a real loopback socket, on a real container store. */
class BlockReadServerTest {
  private static final int BPC = 16 * 1024;
  private static final int CHUNK = 256 * 1024;
  /** Neither a multiple of the checksum piece nor of the chunk: the last piece is short. */
  private static final int BLOCK_BYTES = 3 * 1024 * 1024 + 12_345;
  private static final BlockId BLOCK = BlockId.newBuilder().setContainerId(1).setLocalId(1).build();
  /** Below the last chunk's 12,345 bytes: all of it but its unaligned end is written past the page cache too. */
  private static final DirectIo DIRECT_IO = new DirectIo(8 * 1024);

  @TempDir
  Path root;
  private static final BlockToken NO_TOKEN = BlockToken.getDefaultInstance();
  private ContainerStore store;
  private byte[] data;

  @BeforeEach
  void writeBlock() throws Exception {
    VolumeSet volumes = new VolumeSet("dn-read", List.of(root.resolve("d")), List.of(root.resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    // Every chunk is written past the page cache, but for the block's last 4,153 bytes (not a whole 4 KB).
    store = new ContainerStore("dn-read", "CID-1", volumes.dataVolumes(), DIRECT_IO);
    store.open();
    store.create(1, PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build());
    data = new byte[BLOCK_BYTES];
    new Random(42).nextBytes(data);
    ChecksumData all = ChecksumData.getDefaultInstance();
    for (int off = 0; off < data.length; off += CHUNK) {
      ByteBuffer piece = ByteBuffer.wrap(data, off, Math.min(CHUNK, data.length - off)).slice();
      ChecksumData sums = Checksums.compute(piece, BPC);
      store.writeChunk(BLOCK, off, piece, sums);
      all = Checksums.concat(all, sums);
    }
    store.putBlock(BlockData.newBuilder().setBlockId(BLOCK).setLength(data.length).setChecksums(all).build());
  }

  @AfterEach
  void closeStore() {
    store.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private BlockReadServer start(BlockTransfer transfer) throws IOException {
    return start(transfer, DirectIo.OFF);
  }

  private BlockReadServer start(BlockTransfer transfer, DirectIo directIo) throws IOException {
    return start(transfer, directIo, BlockAccess.OPEN);
  }

  private BlockReadServer start(BlockTransfer transfer, DirectIo directIo, BlockAccess access) throws IOException {
    return start(transfer, directIo, access, TransportSecurity.plaintext());
  }

  private BlockReadServer start(BlockTransfer transfer, DirectIo directIo, BlockAccess access,
      TransportSecurity transport) throws IOException {
    BlockReadServer server = new BlockReadServer("read-test", new HostPort("127.0.0.1", 0), store::planRead,
        transfer, directIo, access, ReadPortTls.of(transport));
    server.start();
    return server;
  }

  private static BlockReadClient connect(BlockReadServer server) throws IOException {
    return new BlockReadClient(new HostPort("127.0.0.1", server.port()), Duration.ofSeconds(10));
  }

  /** Reads a range of the test block into a sink, returning the block's length: by socket or in-process. */
  @FunctionalInterface
  private interface RangeReader {
    long read(long offset, long length, ByteSink sink) throws Exception;
  }

  private static byte[] collect(RangeReader reader, long offset, long length) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long blockLength = reader.read(offset, length, verified -> {
      byte[] bytes = new byte[verified.remaining()];
      verified.get(bytes);
      out.writeBytes(bytes);
    });
    assertEquals(BLOCK_BYTES, blockLength);
    return out.toByteArray();
  }

  private static byte[] read(BlockReadClient client, long offset, long length) throws Exception {
    return collect((from, bytes, sink) -> client.read(BLOCK, from, bytes, NO_TOKEN, sink), offset, length);
  }

  private byte[] expected(int offset, int length) {
    byte[] b = new byte[length];
    System.arraycopy(data, offset, b, 0, length);
    return b;
  }

  @ParameterizedTest
  @EnumSource(BlockTransfer.class)
  void servesWholeBlockAndUnalignedRangesOnOneConnection(BlockTransfer transfer) throws Exception {
    try (BlockReadServer server = start(transfer); BlockReadClient client = connect(server)) {
      assertArrayEquals(data, read(client, 0, BLOCK_BYTES));
      // Ranges that start and end inside checksum pieces: the server widens, the client hands on exactly these.
      int[][] ranges = {{1, 1}, {BPC - 1, 2}, {BPC + 7, 3 * BPC}, {BLOCK_BYTES - 5, 5}, {CHUNK - 3, CHUNK + 9}};
      for (int[] r : ranges) {
        assertArrayEquals(expected(r[0], r[1]), read(client, r[0], r[1]), "range " + r[0] + "+" + r[1]);
      }
      assertEquals(0, read(client, 100, 0).length);
    }
  }

  @Test
  void rangesFromAChunkUpAreReadPastThePageCacheAndTheRestWithSendfile() throws Exception {
    assumeTrue(DIRECT_IO.enabled(), "the temporary directory's file system refuses O_DIRECT");
    try (BlockReadServer server = start(BlockTransfer.ZERO_COPY, DIRECT_IO); BlockReadClient client = connect(server)) {
      assertArrayEquals(data, read(client, 0, BLOCK_BYTES));
      // Unaligned starts and ends, a range ending at the block's unaligned end, and one below the threshold.
      int[][] ranges = {{BPC + 7, CHUNK + 3 * BPC}, {BLOCK_BYTES - CHUNK - 5, CHUNK + 5}, {CHUNK - 3, 2 * CHUNK + 9},
          {4095, CHUNK + 2}, {5, 10}};
      for (int[] r : ranges) {
        assertArrayEquals(expected(r[0], r[1]), read(client, r[0], r[1]), "range " + r[0] + "+" + r[1]);
      }
    }
    assertTrue(DIRECT_IO.enabled(), "direct reads failed and were switched off");
  }

  @ParameterizedTest
  @EnumSource(BlockTransfer.class)
  void refusesMissingBlocksAndRangesPastTheEndWithoutDroppingTheConnection(BlockTransfer transfer)
      throws Exception {
    try (BlockReadServer server = start(transfer); BlockReadClient client = connect(server)) {
      BlockId missing = BLOCK.toBuilder().setLocalId(99).build();
      DatanodeException noBlock = assertThrows(DatanodeException.class,
          () -> client.read(missing, 0, 1, NO_TOKEN, b -> { }));
      assertEquals(DatanodeResult.NO_SUCH_BLOCK, noBlock.result());
      DatanodeException past = assertThrows(DatanodeException.class,
          () -> client.read(BLOCK, BLOCK_BYTES - 1, 2, NO_TOKEN, b -> { }));
      assertEquals(DatanodeResult.RANGE_OUT_OF_BOUNDS, past.result());
      assertArrayEquals(expected(10, 10), read(client, 10, 10));
    }
  }

  @ParameterizedTest
  @EnumSource(BlockTransfer.class)
  void clientRejectsAFlippedByteAndHandsOnNothingPastTheGoodPieces(BlockTransfer transfer) throws Exception {
    int corruptAt = 2 * 1024 * 1024 + 100;
    Path file = store.planRead(BLOCK, 0, 1).file();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {(byte) ~data[corruptAt]}), corruptAt);
    }
    try (BlockReadServer server = start(transfer); BlockReadClient client = connect(server)) {
      long[] delivered = {0};
      DatanodeException e = assertThrows(DatanodeException.class,
          () -> client.read(BLOCK, 0, BLOCK_BYTES, NO_TOKEN, verified -> delivered[0] += verified.remaining()));
      assertEquals(DatanodeResult.CHECKSUM_MISMATCH, e.result());
      assertTrue(e.getMessage().contains("offset " + (corruptAt - corruptAt % BPC)), e.getMessage());
      assertTrue(delivered[0] <= corruptAt, "handed on " + delivered[0] + " bytes past the corruption");
    }
    try (BlockReadServer server = start(transfer); BlockReadClient client = connect(server)) {
      assertArrayEquals(expected(0, BPC), read(client, 0, BPC), "pieces before the corruption still read");
    }
  }

  /** Lends a buffer for every piece offered, and tells lent pieces coming back from the reader's own. */
  private static final class LendingSink implements ByteSink {
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    ByteBuffer lent;
    int lentBack;
    int notLent;

    @Override
    public ByteBuffer lend(int bytes) {
      assertEquals(null, lent, "the last buffer lent came back first");
      lent = ByteBuffer.allocateDirect(bytes);
      return lent;
    }

    @Override
    public void accept(ByteBuffer bytes) {
      if (bytes == lent) {
        lentBack++;
        lent = null;
      } else {
        notLent++;
      }
      byte[] copy = new byte[bytes.remaining()];
      bytes.get(copy);
      received.writeBytes(copy);
    }
  }

  @Test
  void piecesWantedWholeArriveInMemoryTheSinkLends() throws Exception {
    try (BlockReadServer server = start(BlockTransfer.ZERO_COPY); BlockReadClient client = connect(server)) {
      LendingSink whole = new LendingSink();
      client.read(BLOCK, 0, BLOCK_BYTES, NO_TOKEN, whole);
      assertArrayEquals(data, whole.received.toByteArray());
      assertEquals(4, whole.lentBack, "3 MB and a bit, in 1 MB pieces");
      assertEquals(0, whole.notLent);
      // A range that starts and ends inside pieces: those two arrive in the reader's buffer, trimmed.
      LendingSink range = new LendingSink();
      client.read(BLOCK, BPC + 7, 2 * 1024 * 1024, NO_TOKEN, range);
      assertArrayEquals(expected(BPC + 7, 2 * 1024 * 1024), range.received.toByteArray());
      assertEquals(1, range.lentBack);
      assertEquals(2, range.notLent);
    }
  }

  private static LocalBlockSource inProcess(BlockReadServer server) {
    return InProcessServers.readsAt(new HostPort("127.0.0.1", server.port()));
  }

  private static byte[] read(LocalBlockSource local, long offset, long length) throws Exception {
    return collect((from, bytes, sink) -> local.read(BLOCK, from, bytes, NO_TOKEN, sink, "test"), offset, length);
  }

  @Test
  void aClientInTheSameJvmReadsTheSameBytesWithoutTheSocket() throws Exception {
    for (DirectIo directIo : List.of(DirectIo.OFF, DIRECT_IO)) {
      try (BlockReadServer server = start(BlockTransfer.ZERO_COPY, directIo)) {
        LocalBlockSource local = inProcess(server);
        assertNotNull(local, "the read server is not reachable in-process");
        assertArrayEquals(data, read(local, 0, BLOCK_BYTES));
        int[][] ranges = {{1, 1}, {BPC + 7, CHUNK + 3 * BPC}, {BLOCK_BYTES - CHUNK - 5, CHUNK + 5}, {4095, CHUNK + 2}};
        for (int[] r : ranges) {
          assertArrayEquals(expected(r[0], r[1]), read(local, r[0], r[1]), directIo + " range " + r[0] + "+" + r[1]);
        }
        LendingSink whole = new LendingSink();
        local.read(BLOCK, 0, BLOCK_BYTES, NO_TOKEN, whole, "test");
        assertArrayEquals(data, whole.received.toByteArray());
        assertEquals(4, whole.lentBack, "3 MB and a bit, in 1 MB pieces, each read into lent memory");
        assertEquals(0, whole.notLent);
        DatanodeException missing = assertThrows(DatanodeException.class,
            () -> local.read(BLOCK.toBuilder().setLocalId(99).build(), 0, 1, NO_TOKEN, b -> { },
                "test"));
        assertEquals(DatanodeResult.NO_SUCH_BLOCK, missing.result());
      }
    }
  }

  @Test
  void inProcessReadsCheckEveryPieceAndEndWithTheServer() throws Exception {
    int corruptAt = 2 * 1024 * 1024 + 100;
    Path file = store.planRead(BLOCK, 0, 1).file();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {(byte) ~data[corruptAt]}), corruptAt);
    }
    BlockReadServer server = start(BlockTransfer.ZERO_COPY, DIRECT_IO);
    LocalBlockSource local = inProcess(server);
    long[] delivered = {0};
    DatanodeException e = assertThrows(DatanodeException.class,
        () -> local.read(BLOCK, 0, BLOCK_BYTES, NO_TOKEN, verified -> delivered[0] += verified.remaining(),
            "test"));
    assertEquals(DatanodeResult.CHECKSUM_MISMATCH, e.result());
    assertTrue(delivered[0] <= corruptAt, "handed on " + delivered[0] + " bytes past the corruption");
    HostPort address = new HostPort("127.0.0.1", server.port());
    server.close();
    assertNull(InProcessServers.readsAt(address), "a closed read server is still reachable in-process");
    try (BlockReadServer copying = start(BlockTransfer.COPYING)) {
      assertNull(inProcess(copying), "the copying baseline must be measured through its socket");
    }
  }

  /** A secure cluster's read server: only a READ token of the block, from a key SCM made, reads it. */
  @Test
  void aSecureReadServerServesOnlyTheBearerOfTheBlocksToken() throws Exception {
    ManualClock clock = new ManualClock();
    SecretKey key = SecretKey.generate(clock.wallTime(), Duration.ofDays(2));
    BlockTokens tokens = BlockTokens.signedWith(new FixedKeyRing(key), Duration.ofHours(1), clock);
    BlockToken read = tokens.issue("alice", BLOCK, List.of(AccessMode.ACCESS_READ));
    BlockToken write = tokens.issue("alice", BLOCK, List.of(AccessMode.ACCESS_WRITE));
    SecretKey unknown = SecretKey.generate(clock.wallTime(), Duration.ofDays(2));
    BlockToken forged = BlockTokens.signedWith(new FixedKeyRing(unknown), Duration.ofHours(1), clock).issue("mallory",
        BLOCK, List.of(AccessMode.ACCESS_READ));
    try (BlockReadServer server = start(BlockTransfer.ZERO_COPY, DirectIo.OFF, new BlockAccess(tokens, "dn"));
        BlockReadClient client = connect(server)) {
      LocalBlockSource local = inProcess(server);
      for (BlockToken refused : List.of(NO_TOKEN, write, forged)) {
        long[] delivered = {0};
        DatanodeException overSocket = assertThrows(DatanodeException.class,
            () -> client.read(BLOCK, 0, BLOCK_BYTES, refused, b -> delivered[0] += b.remaining()));
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, overSocket.result());
        DatanodeException inProcess = assertThrows(DatanodeException.class,
            () -> local.read(BLOCK, 0, BLOCK_BYTES, refused, b -> delivered[0] += b.remaining(), "test"));
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, inProcess.result());
        assertEquals(0, delivered[0], "not a byte read");
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
            () -> client.checksums(BLOCK, 0, BLOCK_BYTES, refused)).result());
      }
      assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
          () -> client.listContainer(BLOCK.getContainerId(), read)).result(), "a block token lists no container");

      assertArrayEquals(data, collect((from, bytes, sink) -> client.read(BLOCK, from, bytes, read, sink), 0,
          BLOCK_BYTES));
      clock.advance(Duration.ofHours(1));
      assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, assertThrows(DatanodeException.class,
          () -> client.read(BLOCK, 0, 1, read, b -> { })).result(), "an expired token reads nothing");
    }
  }

  /**
   * A secure cluster's read port speaks TLS only, showing the datanode's certificate: a reader that trusts the
   * cluster's root reads every range (the bytes now pass through the JVM to be encrypted, checksums verified as
   * ever, small and large reads on one connection, which stays good for the next read); a plaintext reader and a
   * reader trusting another CA read nothing.
   */
  @Test
  void aSecureReadServerSpeaksTlsToReadersThatTrustTheCluster() throws Exception {
    X509Settings x509 = X509Settings.from(Configuration.defaults());
    CertificateAuthority ca = CertificateAuthority.initialize(root.resolve("ca"), x509, "CID-read",
        SystemClock.INSTANCE);
    TransportSecurity datanode = TransportSecurity.mutual(ServiceCertificates.loadOrObtain(root.resolve("dn"),
        new CertificateSubject(ServiceRole.DATANODE, "127.0.0.1", "CID-read"), x509, ca.inProcess()));
    CertificateAuthority stranger = CertificateAuthority.initialize(root.resolve("stranger"), x509, "CID-read",
        SystemClock.INSTANCE);
    try (BlockReadServer server = start(BlockTransfer.ZERO_COPY, DIRECT_IO, BlockAccess.OPEN, datanode)) {
      HostPort address = new HostPort("127.0.0.1", server.port());
      try (BlockReadClient client = new BlockReadClient(address, Duration.ofSeconds(10),
          TransportSecurity.trusting(ca.root()))) {
        assertArrayEquals(data, read(client, 0, BLOCK_BYTES));
        for (int[] r : new int[][] {{1, 1}, {BPC + 7, 3 * BPC}, {CHUNK - 3, CHUNK + 9}, {BLOCK_BYTES - 5, 5}}) {
          assertArrayEquals(expected(r[0], r[1]), read(client, r[0], r[1]), "range " + r[0] + "+" + r[1]);
        }
        assertTrue(client.isOpenWithNothingUnread(), "the connection is good for another read");
        assertArrayEquals(data, read(client, 0, BLOCK_BYTES));
      }
      try (BlockReadClient plain = new BlockReadClient(address, Duration.ofSeconds(2))) {
        assertThrows(IOException.class, () -> read(plain, 0, BLOCK_BYTES), "a plaintext reader reads nothing");
      }
      assertThrows(IOException.class, () -> new BlockReadClient(address, Duration.ofSeconds(10),
          TransportSecurity.trusting(stranger.root())), "a datanode of another CA is not trusted");
    }
  }
}
