package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.io.FileTrees;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.client.internal.ratis.PipelineClient;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;
import org.tropos.tools.local.LocalCluster;

/** The replicated write path through Ratis and the zero-copy read path, on three real datanodes. */
@Timeout(180)
class BlockWritePathIT {
  /** This cluster is not secure: its datanodes take writes and serve reads without block tokens. */
  private static final BlockToken NO_TOKEN = BlockToken.getDefaultInstance();
  private static final int CHUNK = 4 << 20;
  private static final int BPC = 16 << 10;
  private static final Map<String, String> ONE_PIPELINE = Map.of("ozone.scm.datanode.pipeline.limit", "1");
  /** A whole-cluster restart takes longer than the mini cluster's 2 s dead interval: use real-world intervals. */
  private static final Map<String, String> ONE_PIPELINE_SLOW_FAILURE_DETECTION = Map.of(
      "ozone.scm.datanode.pipeline.limit", "1", "ozone.scm.stale.node.interval", "30s",
      "ozone.scm.dead.node.interval", "60s");

  @TempDir
  Path dir;

  private static byte[] random(int size, long seed) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }

  /** Writes {@code data} as one block in 4 MB chunks, commits it and waits until every replica has it. */
  private static void write(PipelineClient pipeline, BlockId block, byte[] data) {
    write(pipeline, block, data, false);
  }

  /** As above; with {@code lastChunkCommits} the last chunk's entry also commits the block (no PutBlock). */
  private static void write(PipelineClient pipeline, BlockId block, byte[] data, boolean lastChunkCommits) {
    ChecksumData all = ChecksumData.getDefaultInstance();
    long index = 0;
    for (int off = 0; off < data.length; off += CHUNK) {
      ByteBuffer chunk = ByteBuffer.wrap(data, off, Math.min(CHUNK, data.length - off)).slice();
      ChecksumData sums = Checksums.compute(chunk, BPC);
      all = Checksums.concat(all, sums);
      boolean last = off + CHUNK >= data.length;
      index = (last && lastChunkCommits ? pipeline.writeLastChunk(block, NO_TOKEN, off, chunk, sums, data.length,
          all) : pipeline.writeChunk(block, NO_TOKEN, off, chunk, sums)).join().logIndex();
    }
    if (!lastChunkCommits) {
      index = pipeline.putBlock(block, NO_TOKEN, data.length, all).join().logIndex();
    }
    pipeline.watch(index, ReplicationLevel.ALL_COMMITTED).join();
  }

  private static int readPort(DatanodeDetails node) {
    return node.getPortsList().stream().filter(p -> p.getName() == PortName.READ).findFirst().orElseThrow()
        .getValue();
  }

  private static byte[] read(DatanodeDetails replica, BlockId block, long length) throws Exception {
    int port = readPort(replica);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    WritableByteChannel sink = Channels.newChannel(out);
    try (BlockReadClient reader = new BlockReadClient(new HostPort(replica.getIpAddress(), port),
        Duration.ofSeconds(30))) {
      reader.read(block, 0, length, NO_TOKEN, verified -> {
        try {
          sink.write(verified);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
    }
    return out.toByteArray();
  }

  private static BlockId block(long local) {
    return BlockId.newBuilder().setContainerId(1).setLocalId(local).build();
  }

  private static PipelineInfo onePipeline(MiniCluster mini) throws Exception {
    try (ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("an OPEN pipeline", MiniCluster.WAIT, () -> scm.listPipelines(PipelineState.OPEN),
          ps -> ps.size() == 1 && ps.get(0).hasLeader());
      return scm.listPipelines(PipelineState.OPEN).get(0);
    }
  }

  private static List<DatanodeDetails> members(PipelineInfo p) {
    return p.getMembersList().stream().map(PipelineMember::getDatanode).toList();
  }

  @Test
  void blocksWrittenThroughRatisReadBackBitExactFromEveryReplicaAndSurviveARestart() throws Exception {
    byte[] small = random(1024, 1);
    byte[] overChunk = random(CHUNK + 1, 2);
    byte[] larger = random(5 * CHUNK + 12_345, 3);
    byte[] committedByItsLastChunk = random(2 * CHUNK + 777, 5);
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, ONE_PIPELINE_SLOW_FAILURE_DETECTION)) {
      PipelineInfo info = onePipeline(mini);
      try (PipelineClient pipeline = new PipelineClient(Uuids.fromProto(info.getId().getId()), members(info),
          Uuids.fromProto(info.getLeader()))) {
        write(pipeline, block(1), small);
        write(pipeline, block(2), overChunk);
        write(pipeline, block(3), larger);
        write(pipeline, block(4), committedByItsLastChunk, true);
      }
      long written = small.length + overChunk.length + larger.length + committedByItsLastChunk.length;
      for (int i = 1; i <= 3; i++) {
        // Ratis preallocates log segments (4 MB): a log carrying the chunks would hold all 25 MB written.
        long raftLogBytes = FileTrees.regularFileBytes(dir.resolve("dn" + i).resolve("ratis1"));
        assertTrue(raftLogBytes < 6 << 20, "chunk data stays out of dn" + i + "'s RaftLog: it holds " + raftLogBytes
            + " bytes after " + written + " bytes were written");
      }
      for (DatanodeDetails replica : members(info)) {
        assertArrayEquals(small, read(replica, block(1), small.length));
        assertArrayEquals(overChunk, read(replica, block(2), overChunk.length));
        assertArrayEquals(larger, read(replica, block(3), larger.length));
        assertArrayEquals(committedByItsLastChunk, read(replica, block(4), committedByItsLastChunk.length));
      }
    }
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, ONE_PIPELINE_SLOW_FAILURE_DETECTION)) {
      mini.awaitAllHealthy();
      Await.until("every datanode registered with its read port", MiniCluster.WAIT, mini::datanodes,
          ds -> ds.stream().allMatch(d -> readPort(d.getDetails()) > 0));
      for (var node : mini.datanodes()) {
        assertArrayEquals(small, read(node.getDetails(), block(1), small.length), "committed blocks survive");
        assertArrayEquals(larger, read(node.getDetails(), block(3), larger.length), "committed blocks survive");
        assertArrayEquals(committedByItsLastChunk, read(node.getDetails(), block(4), committedByItsLastChunk.length),
            "a block committed by its last chunk survives");
      }
    }
  }

  /**
   * A lone writer's commits reach every replica at once. There are no Ratis metadata entries to carry them, and
   * Ratis's own leader would tell a follower of a commit only with the next entries or with a heartbeat half an
   * election timeout (0.5 s) later: each wait below for every replica would take that long, 10 s for the 20.
   */
  @Test
  void aLoneWritersCommitsReachEveryReplicaWithoutWaitingForAHeartbeat() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, ONE_PIPELINE)) {
      PipelineInfo info = onePipeline(mini);
      try (PipelineClient pipeline = new PipelineClient(Uuids.fromProto(info.getId().getId()), members(info),
          Uuids.fromProto(info.getLeader()))) {
        write(pipeline, block(100), random(1024, 100), true);
        long start = System.nanoTime();
        for (int i = 1; i <= 20; i++) {
          write(pipeline, block(100 + i), random(1024, 100 + i), true);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofSeconds(4)) < 0, "20 writes, each until every replica committed it, took "
            + took);
      }
    }
  }

  /**
   * A block written and committed by one entry goes straight to the pipeline's leader in this JVM, not through its
   * port; a block of several entries goes through the Ratis client (which keeps them in order), and so does every
   * write once in-process calls are off. Every replica holds what was written either way.
   */
  @Test
  void aWholeBlockInOneEntryGoesToTheLeaderInThisJvmWithoutItsPort() throws Exception {
    byte[] whole = random(100 << 10, 20);
    byte[] twoEntries = random(CHUNK + 100, 21);
    byte[] overThePort = random(100 << 10, 22);
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, ONE_PIPELINE)) {
      PipelineInfo info = onePipeline(mini);
      try (PipelineClient pipeline = new PipelineClient(Uuids.fromProto(info.getId().getId()), members(info),
          null)) {
        long before = inProcessWrites(mini);
        write(pipeline, block(20), whole, true);
        assertEquals(before + 1, inProcessWrites(mini), "the whole block went to the leader in this JVM");
        write(pipeline, block(21), twoEntries, true);
        assertEquals(before + 1, inProcessWrites(mini), "a block of two entries goes through the Ratis client");
        System.setProperty(InProcessServers.PROPERTY, "false");
        try {
          write(pipeline, block(22), overThePort, true);
        } finally {
          System.clearProperty(InProcessServers.PROPERTY);
        }
        assertEquals(before + 1, inProcessWrites(mini), "with in-process calls off the write takes the port");
      }
      for (DatanodeDetails replica : members(info)) {
        assertArrayEquals(whole, read(replica, block(20), whole.length));
        assertArrayEquals(twoEntries, read(replica, block(21), twoEntries.length));
        assertArrayEquals(overThePort, read(replica, block(22), overThePort.length));
      }
    }
  }

  /** Writes the datanodes' Raft servers took from clients of their own JVM, as their /prom pages count them. */
  private static long inProcessWrites(MiniCluster mini) throws Exception {
    long total = 0;
    for (int i = 1; i <= mini.cluster().datanodeCount(); i++) {
      URI prom = URI.create("http://" + LocalCluster.datanodeAddress(i) + ":" + mini.cluster().datanode(i).httpPort()
          + "/prom");
      String page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(prom).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      total += page.lines().filter(l -> l.startsWith("datanode_raft_inprocess_requests_total "))
          .mapToLong(l -> (long) Double.parseDouble(l.substring(l.indexOf(' ') + 1))).sum();
    }
    return total;
  }

  @Test
  void aFlippedByteOnOneReplicaIsCaughtAndTheOthersServeTheRightBytes() throws Exception {
    byte[] data = random(3 * BPC + 100, 4);
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, ONE_PIPELINE)) {
      PipelineInfo info = onePipeline(mini);
      try (PipelineClient pipeline = new PipelineClient(Uuids.fromProto(info.getId().getId()), members(info),
          null)) {
        write(pipeline, block(7), data);
      }
      DatanodeDetails victim = members(info).get(0);
      DatanodeServer server = datanode(mini, Uuids.fromProto(victim.getUuid()));
      Path file = MiniCluster.blockFile(server, block(7), data.length);
      try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
        raw.seek(2 * BPC + 5);
        int b = raw.read();
        raw.seek(2 * BPC + 5);
        raw.write(b ^ 0x01);
      }
      DatanodeException corrupt = assertThrows(DatanodeException.class, () -> read(victim, block(7), data.length));
      assertEquals(DatanodeResult.CHECKSUM_MISMATCH, corrupt.getCause() instanceof DatanodeException d
          ? d.result() : corrupt.result());
      assertArrayEquals(data, read(members(info).get(1), block(7), data.length));
      assertArrayEquals(data, read(members(info).get(2), block(7), data.length));
    }
  }

  private static DatanodeServer datanode(MiniCluster mini, UUID id) {
    for (int i = 1; i <= mini.cluster().datanodeCount(); i++) {
      if (mini.cluster().datanode(i).id().uuid().equals(id)) {
        return mini.cluster().datanode(i);
      }
    }
    throw new AssertionError("no datanode " + id);
  }
}
