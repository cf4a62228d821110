package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.conf.Configuration;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.FixedKeyRing;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.read.BlockReadServer;
import org.tropos.datanode.read.BlockTransfer;
import org.tropos.datanode.read.ContainerReads;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.datanode.security.ReadPortTls;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.DeleteContainerCommand;
import org.tropos.proto.scm.ReplicateContainerCommand;

/**
 * A closed container copied from one datanode's store to another's through the source's read server: every block
 * arrives bit-exact and verified, a corrupt source is refused and leaves nothing behind, an interrupted copy is
 * cleaned up at the next start, and a replica is deleted whole.
 */
class ContainerCopyTest {
  private static final int BPC = 16 * 1024;
  private static final long CONTAINER = 5;

  @TempDir
  Path root;
  private VolumeSet sourceVolumes;
  private VolumeSet targetVolumes;
  private ContainerStore source;
  private ContainerStore target;
  private BlockReadServer sourceServer;
  private final List<byte[]> written = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    sourceVolumes = volumes("source");
    targetVolumes = volumes("target");
    source = open("source", sourceVolumes);
    target = open("target", targetVolumes);
    source.create(CONTAINER, PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build());
    for (int i = 1; i <= 3; i++) {
      written.add(write(block(i), i == 2 ? 0 : 300_000 * i + 17, i));
    }
    source.setState(CONTAINER, ContainerState.CONTAINER_CLOSED);
    sourceServer = new BlockReadServer("copy-source", new HostPort("127.0.0.1", 0), new ContainerReads(source),
        BlockTransfer.ZERO_COPY);
    sourceServer.start();
  }

  @AfterEach
  void stop() {
    sourceServer.close();
    source.close();
    target.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private VolumeSet volumes(String name) throws IOException {
    VolumeSet v = new VolumeSet("dn-" + name, List.of(root.resolve(name).resolve("d1")),
        List.of(root.resolve(name).resolve("r")));
    v.createDirectories();
    v.format(UUID.randomUUID(), "CID-1");
    return v;
  }

  private static ContainerStore open(String name, VolumeSet volumes) throws IOException {
    ContainerStore s = new ContainerStore("dn-" + name, "CID-1", volumes.dataVolumes());
    s.open();
    return s;
  }

  private static BlockId block(long local) {
    return BlockId.newBuilder().setContainerId(CONTAINER).setLocalId(local).build();
  }

  private byte[] write(BlockId id, int size, long seed) throws DatanodeException {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), BPC);
    source.writeChunk(id, 0, ByteBuffer.wrap(data), sums);
    source.putBlock(BlockData.newBuilder().setBlockId(id).setLength(size).setChecksums(sums).setBcsid(40 + seed)
        .build());
    return data;
  }

  private List<HostPort> sources() {
    return List.of(new HostPort("127.0.0.1", sourceServer.port()));
  }

  private static byte[] read(ContainerStore store, BlockId id) throws Exception {
    var plan = store.planRead(id, 0, store.getBlock(id).getLength());
    return Files.readAllBytes(plan.file());
  }

  private Path staging(String name) {
    return root.resolve(name).resolve("d1").resolve("tropos").resolve("CID-1").resolve("tmp");
  }

  private static long entries(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.count();
    }
  }

  @Test
  void aClosedContainerIsCopiedWholeAndVerifiedAndCopyingItAgainDoesNothing() throws Exception {
    ContainerImporter importer = new ContainerImporter("dn-target", target, Duration.ofSeconds(10),
        BlockAccess.OPEN);
    importer.copy(CONTAINER, sources());
    assertTrue(target.descriptor(CONTAINER).isPresent());
    for (int i = 1; i <= 3; i++) {
      assertArrayEquals(written.get(i - 1), read(target, block(i)), "block " + i);
    }
    ContainerReport report = target.reports().get(0);
    assertEquals(ContainerState.CONTAINER_CLOSED, report.getState());
    assertEquals(3, report.getBlockCount());
    assertEquals(written.stream().mapToLong(b -> b.length).sum(), report.getUsedBytes());
    assertEquals(report.getUsedBytes(), target.blockBytesPerVolume().values().stream().mapToLong(Long::longValue)
        .sum(), "the volume's used bytes count the copy at once");
    assertEquals(source.reports().get(0).getBcsid(), report.getBcsid());
    importer.copy(CONTAINER, List.of(new HostPort("127.0.0.1", 1)));
    assertEquals(0, entries(staging("target")), "nothing staged is left");

    target.close();
    target = open("target", targetVolumes);
    assertArrayEquals(written.get(2), read(target, block(3)), "the copy survives a restart");
  }

  @Test
  void aCorruptSourceIsRefusedAndTheNextSourceServesTheCopy() throws Exception {
    Path file = source.planRead(block(3), 0, 10).file();
    byte[] good = Files.readAllBytes(file);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(123_456);
      raf.write(~good[123_456]);
    }
    ContainerImporter importer = new ContainerImporter("dn-target", target, Duration.ofSeconds(10),
        BlockAccess.OPEN);
    DatanodeException refused = assertThrows(DatanodeException.class, () -> importer.copy(CONTAINER, sources()));
    assertEquals(DatanodeResult.CHECKSUM_MISMATCH, refused.result());
    assertFalse(target.descriptor(CONTAINER).isPresent());
    assertEquals(0, entries(staging("target")), "the partial copy was removed");

    Files.write(file, good);
    importer.copy(CONTAINER, List.of(new HostPort("127.0.0.1", 1), sources().get(0)));
    assertArrayEquals(written.get(2), read(target, block(3)), "an unreachable first source is skipped");
  }

  @Test
  void aCopyInterruptedBeforeItsRenameLeavesNothingAfterARestart() throws Exception {
    ContainerCopies.Staging copy = target.stage(CONTAINER);
    Files.write(copy.blockFile(1), written.get(0));
    copy.db().putAll(List.of(source.getBlock(block(1))));
    target.close();
    target = open("target", targetVolumes);
    assertFalse(target.descriptor(CONTAINER).isPresent());
    assertEquals(0, entries(staging("target")));
    new ContainerImporter("dn-target", target, Duration.ofSeconds(10), BlockAccess.OPEN).copy(CONTAINER, sources());
    assertEquals(3, target.reports().get(0).getBlockCount(), "no record of the interrupted copy is counted");
  }

  @Test
  void aReplicaIsDeletedWholeButAnOpenOneIsKept() throws Exception {
    Path dir = source.planRead(block(1), 0, 1).file().getParent().getParent();
    assertTrue(source.deleteContainer(CONTAINER));
    assertFalse(source.descriptor(CONTAINER).isPresent());
    assertFalse(Files.exists(dir));
    assertEquals(DatanodeResult.NO_SUCH_CONTAINER, assertThrows(DatanodeException.class,
        () -> source.getBlock(block(1))).result());
    assertFalse(source.deleteContainer(CONTAINER), "deleting again finds nothing");
    source.create(9, PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build());
    assertEquals(DatanodeResult.INVALID_REQUEST, assertThrows(DatanodeException.class,
        () -> source.deleteContainer(9)).result());
  }

  @Test
  void aReplicationCommandPastItsDeadlineIsDroppedAndATimelyOneCopies() throws Exception {
    DatanodeDetails sourceNode = DatanodeDetails.newBuilder().setHostName("localhost").setIpAddress("127.0.0.1")
        .addPorts(Port.newBuilder().setName(PortName.READ).setValue(sourceServer.port())).build();
    try (ReplicationCommandHandler handler = new ReplicationCommandHandler("dn-target", target,
        new ContainerImporter("dn-target", target, Duration.ofSeconds(10), BlockAccess.OPEN),
        new EcReconstructor("dn-target", target, Duration.ofSeconds(10), BlockAccess.OPEN, TransportSecurity.plaintext()),
        2, SystemClock.INSTANCE)) {
      assertFalse(handler.replicate(ReplicateContainerCommand.newBuilder().setContainerId(CONTAINER)
          .addSources(sourceNode).setDeadlineEpochMs(System.currentTimeMillis() - 1).build()));
      assertTrue(handler.replicate(ReplicateContainerCommand.newBuilder().setContainerId(CONTAINER)
          .addSources(sourceNode).setDeadlineEpochMs(System.currentTimeMillis() + 60_000).build()));
      Threads.awaitCondition("the copy", Duration.ofSeconds(10), Duration.ofMillis(20),
          () -> target.descriptor(CONTAINER).isPresent());
      assertArrayEquals(written.get(0), read(target, block(1)));

      assertFalse(handler.delete(DeleteContainerCommand.newBuilder().setContainerId(CONTAINER)
          .setDeadlineEpochMs(System.currentTimeMillis() - 1).build()));
      assertTrue(target.descriptor(CONTAINER).isPresent());
      assertTrue(handler.delete(DeleteContainerCommand.newBuilder().setContainerId(CONTAINER).build()));
      Threads.awaitCondition("the deletion", Duration.ofSeconds(10), Duration.ofMillis(20),
          () -> !target.descriptor(CONTAINER).isPresent());
    }
  }

  /**
   * In a secure cluster the source serves its read port over TLS and lists and serves a container only for a
   * container token signed with a key SCM made: the copying datanode signs its own; one without a token, or with a
   * key of its own, copies nothing.
   */
  @Test
  void aSecureSourceServesACopyOnlyForAContainerTokenOfTheCluster() throws Exception {
    X509Settings x509 = X509Settings.from(Configuration.defaults());
    CertificateAuthority ca = CertificateAuthority.initialize(root.resolve("ca"), x509, "CID-copy",
        SystemClock.INSTANCE);
    TransportSecurity sourceTls = datanodeTls(ca, x509, "source");
    TransportSecurity targetTls = datanodeTls(ca, x509, "target");
    ManualClock clock = new ManualClock();
    SecretKey clusterKey = SecretKey.generate(clock.wallTime(), Duration.ofDays(2));
    BlockAccess cluster = new BlockAccess(BlockTokens.signedWith(new FixedKeyRing(clusterKey), Duration.ofHours(1),
        clock), "datanode");
    try (BlockReadServer secured = new BlockReadServer("secure-source", new HostPort("127.0.0.1", 0),
        new ContainerReads(source), BlockTransfer.ZERO_COPY, DirectIo.OFF, cluster, ReadPortTls.of(sourceTls))) {
      secured.start();
      List<HostPort> from = List.of(new HostPort("127.0.0.1", secured.port()));
      BlockAccess foreign = new BlockAccess(BlockTokens.signedWith(new FixedKeyRing(SecretKey.generate(
          clock.wallTime(), Duration.ofDays(2))), Duration.ofHours(1), clock), "intruder");
      for (BlockAccess refused : List.of(BlockAccess.OPEN, foreign)) {
        DatanodeException e = assertThrows(DatanodeException.class,
            () -> new ContainerImporter("dn-target", target, Duration.ofSeconds(10), refused, targetTls).copy(
                CONTAINER, from));
        assertEquals(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, e.result());
        assertFalse(target.descriptor(CONTAINER).isPresent());
      }
      new ContainerImporter("dn-target", target, Duration.ofSeconds(10), cluster, targetTls).copy(CONTAINER, from);
      for (int i = 1; i <= 3; i++) {
        assertArrayEquals(written.get(i - 1), read(target, block(i)), "block " + i);
      }
    }
  }

  private TransportSecurity datanodeTls(CertificateAuthority ca, X509Settings x509, String host) throws Exception {
    return TransportSecurity.mutual(ServiceCertificates.loadOrObtain(root.resolve("certs-" + host),
        new CertificateSubject(ServiceRole.DATANODE, host, "CID-copy"), x509, ca.inProcess()));
  }
}
