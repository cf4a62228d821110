package org.tropos.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.conf.Configuration;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * The block writer against datanodes played by real Ratis servers on loopback with scripted state machines
 * ({@link ScriptedPipeline}) and SCM's allocation by a scripted allocator that honours the exclude list: which
 * bytes go where, when blocks are committed, and how the writer goes on when a container closes under it, when
 * a pipeline stops answering, and when it runs out of retries.
 */
@Timeout(120)
class BlockStreamWriterTest {
  private static final int KB = 1 << 10;
  private static final int CHUNK = 256 * KB;
  /** Four chunks a block, a commit every two chunks, two retries. */
  private static final BlockWriteSettings SETTINGS = new BlockWriteSettings(4 * CHUNK, CHUNK, 16 * KB, 2, 2,
      ReplicationFactor.ONE, Duration.ofSeconds(5));

  @TempDir
  Path dir;

  private final List<ScriptedPipeline> pipelines = new ArrayList<>();
  /** A write that cannot commit fails after this long (the Ratis client retries until then). */
  private final PipelineClients clients = new PipelineClients(new Configuration(Map.of(
      "hdds.ratis.client.request.write.timeout", "3s", "hdds.ratis.client.request.watch.timeout", "3s")),
      TransportSecurity.plaintext());
  private final List<ExcludeList> excludes = new ArrayList<>();
  private final List<BlockId> allocated = new ArrayList<>();

  @AfterEach
  void stop() throws IOException {
    clients.close();
    for (ScriptedPipeline pipeline : pipelines) {
      pipeline.close();
    }
  }

  @Test
  void aStreamBecomesWholeBlocksCommittedEveryTwoChunks() throws Exception {
    ScriptedPipeline pipeline = pipeline();
    byte[] data = bytes(9 * CHUNK + 100);
    List<BlockLocation> blocks = write(data, 70_001);

    assertEquals(List.of(4L * CHUNK, 4L * CHUNK, CHUNK + 100L), blocks.stream().map(BlockLocation::length).toList());
    assertEquals(allocated, blocks.stream().map(BlockLocation::block).toList());
    assertStored(data, blocks, pipeline);
    BlockId first = blocks.get(0).block();
    assertEquals(List.of(0L, (long) CHUNK, 2L * CHUNK, 3L * CHUNK), pipeline.chunkOffsets(first));
    assertEquals(List.of(2L * CHUNK, 4L * CHUNK), pipeline.commits(first));
    // The last block's last chunk carries its commit: one commit for two chunks.
    assertEquals(List.of(CHUNK + 100L), pipeline.commits(blocks.get(2).block()));
    assertEquals(3, excludes.size());
    assertTrue(excludes.stream().allMatch(ExcludeList.getDefaultInstance()::equals), excludes.toString());
  }

  @Test
  void aContainerClosingMidBlockSendsTheUncommittedChunksToAnotherContainerOfThePipeline() throws Exception {
    ScriptedPipeline pipeline = pipeline();
    // Three chunks go in: two are committed, the third is applied but not committed when the fourth is refused.
    pipeline.closeContainerAfter(1, 3);
    byte[] data = bytes(4 * CHUNK);
    List<BlockLocation> blocks = write(data, CHUNK);

    assertEquals(2, blocks.size(), blocks.toString());
    assertEquals(1, blocks.get(0).block().getContainerId());
    assertEquals(2L * CHUNK, blocks.get(0).length(), "only what was committed stays in the closed container");
    assertEquals(2, blocks.get(1).block().getContainerId());
    assertEquals(2L * CHUNK, blocks.get(1).length());
    assertStored(data, blocks, pipeline);
    assertEquals(List.of(0L, (long) CHUNK, 2L * CHUNK), pipeline.chunkOffsets(blocks.get(0).block()),
        "the third chunk reached the closed container, uncommitted");
    assertEquals(List.of(2L * CHUNK), pipeline.commits(blocks.get(0).block()));
    assertEquals(ExcludeList.newBuilder().addContainers(1).build(), excludes.get(1),
        "the container is excluded, not the pipeline");
  }

  @Test
  void aPipelineThatStopsAnsweringIsExcludedAndTheWriteGoesOnThroughAnother() throws Exception {
    ScriptedPipeline first = pipeline();
    ScriptedPipeline second = pipeline();
    byte[] data = bytes(4 * CHUNK);
    try (BlockStreamWriter writer = new BlockStreamWriter(this::allocate, clients, SETTINGS)) {
      writer.write(ByteBuffer.wrap(data, 0, 2 * CHUNK));
      writer.write(ByteBuffer.wrap(data, 2 * CHUNK, 1));
      // Two chunks sent and committed on the first pipeline; its datanode now goes away.
      first.close();
      writer.write(ByteBuffer.wrap(data, 2 * CHUNK + 1, 2 * CHUNK - 1));
      List<BlockLocation> blocks = writer.finish();

      assertEquals(2, blocks.size(), blocks.toString());
      assertEquals(2L * CHUNK, blocks.get(0).length());
      assertArrayEquals(Arrays.copyOf(data, 2 * CHUNK), first.bytes(blocks.get(0).block(), 2L * CHUNK));
      assertEquals(2L * CHUNK, blocks.get(1).length());
      assertArrayEquals(Arrays.copyOfRange(data, 2 * CHUNK, 4 * CHUNK), second.bytes(blocks.get(1).block(),
          2L * CHUNK));
      assertEquals(ExcludeList.newBuilder().addPipelines(first.info().getId()).build(), excludes.get(1));
    }
  }

  @Test
  void aWriteThatKeepsFailingFailsAfterItsRetriesNamingTheLastError() throws Exception {
    ScriptedPipeline pipeline = pipeline();
    for (long container = 1; container <= 3; container++) {
      pipeline.closeContainerAfter(container, 0);
    }
    IOException failed = assertThrows(IOException.class, () -> write(bytes(CHUNK), CHUNK));
    assertTrue(failed.getMessage().startsWith("write failed after 2 retries"), failed.getMessage());
    assertTrue(failed.getMessage().contains("container 3 is CLOSED"), failed.getMessage());
    assertEquals(3, allocated.size(), "the first try and two retries, each in a new container");
    assertEquals(ExcludeList.newBuilder().addContainers(1).addContainers(2).build(), excludes.get(2));
  }

  private ScriptedPipeline pipeline() throws IOException {
    ScriptedPipeline pipeline = new ScriptedPipeline(dir.resolve("pipeline" + pipelines.size()));
    pipelines.add(pipeline);
    return pipeline;
  }

  /**
   * SCM's allocation: a new block in the first pipeline not excluded, in the lowest container not excluded
   * (containers numbered from 1 across pipelines, each pipeline its own range of ten).
   */
  private AllocateBlockResponse allocate(long size, ReplicationFactor factor, ExcludeList exclude)
      throws IOException {
    excludes.add(exclude);
    for (int p = 0; p < pipelines.size(); p++) {
      ScriptedPipeline pipeline = pipelines.get(p);
      if (exclude.getPipelinesList().contains(pipeline.info().getId())) {
        continue;
      }
      long container = 10L * p + 1;
      while (exclude.getContainersList().contains(container)) {
        container++;
      }
      BlockId block = BlockId.newBuilder().setContainerId(container).setLocalId(allocated.size() + 1).build();
      allocated.add(block);
      return AllocateBlockResponse.newBuilder().setBlockId(block).setPipeline(pipeline.info()).build();
    }
    throw new IOException("no pipeline left to allocate in, excluded: " + exclude);
  }

  /** Writes {@code data} in pieces of {@code piece} bytes and finishes. */
  private List<BlockLocation> write(byte[] data, int piece) throws IOException {
    try (BlockStreamWriter writer = new BlockStreamWriter(this::allocate, clients, SETTINGS)) {
      for (int at = 0; at < data.length; at += piece) {
        writer.write(ByteBuffer.wrap(data, at, Math.min(piece, data.length - at)));
      }
      return writer.finish();
    }
  }

  /** The blocks, read back from what the pipeline applied, hold {@code data} in order. */
  private static void assertStored(byte[] data, List<BlockLocation> blocks, ScriptedPipeline pipeline) {
    int at = 0;
    for (BlockLocation block : blocks) {
      assertArrayEquals(Arrays.copyOfRange(data, at, at + (int) block.length()), pipeline.bytes(block.block(),
          block.length()), "block " + block.block().getLocalId() + " at " + at);
      at += (int) block.length();
    }
    assertEquals(data.length, at);
  }

  private static byte[] bytes(int length) {
    byte[] data = new byte[length];
    new Random(length).nextBytes(data);
    return data;
  }
}
