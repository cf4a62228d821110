package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.KeyBlocks;

/**
 * Deleted keys' blocks end to end: OM's hand-over to SCM (DeleteKeyBlocks), SCM's deleted-block log, the
 * DeleteBlocksCommand to every replica, the acknowledgements in the heartbeats; also across an SCM restart.
 */
@Timeout(180)
class BlockDeletionIT {
  private static final int MB = 1 << 20;
  private static final BlockWriteSettings SETTINGS = new BlockWriteSettings(MB, MB / 4, 16 * 1024,
      4, 5, ReplicationFactor.THREE, Duration.ofSeconds(3));
  private static final String FAST_DELETION = "300ms";
  private static final Map<String, String> CLUSTER = Map.of("ozone.scm.datanode.pipeline.limit", "1",
      "ozone.scm.block.size", "1MB", "hdds.scm.block.deleting.service.interval", FAST_DELETION);

  @TempDir
  Path dir;
  private final BlockClients blockClients = new BlockClients();

  @AfterEach
  void closeBlockClients() {
    blockClients.close();
  }

  private List<BlockLocation> write(ScmBlockClient scm, int bytes) throws Exception {
    try (BlockWriter writer = blockClients.over(scm).newWriter(SETTINGS)) {
      writer.write(ByteBuffer.allocate(bytes));
      return writer.finish();
    }
  }

  private static KeyBlocks key(String id, List<BlockLocation> blocks) {
    return KeyBlocks.newBuilder().setKeyId(id).addAllBlocks(blocks.stream().map(BlockLocation::block).toList())
        .build();
  }

  /** The block files of {@code blocks} on every datanode, all of which exist now. */
  private static List<Path> blockFiles(MiniCluster mini, List<BlockLocation> blocks) throws Exception {
    List<Path> files = new ArrayList<>();
    for (int i = 1; i <= mini.cluster().datanodeCount(); i++) {
      for (BlockLocation b : blocks) {
        Path file = MiniCluster.blockFile(mini.cluster().datanode(i), b.block(), b.length());
        assertTrue(Files.exists(file), file.toString());
        files.add(file);
      }
    }
    return files;
  }

  private static void awaitDeleted(MiniCluster mini, List<Path> files) throws Exception {
    Await.until("block files deleted on every replica", MiniCluster.WAIT,
        () -> files.stream().filter(Files::exists).toList(), List::isEmpty);
    Await.until("SCM's deleted-block log empty", MiniCluster.WAIT,
        () -> mini.cluster().scm().deletedBlockLog().size(), n -> n == 0);
  }

  private void assertUnreadable(MiniCluster mini, ScmBlockClient scm, List<BlockLocation> blocks) {
    for (int i = 1; i <= mini.cluster().datanodeCount(); i++) {
      DatanodeServer dn = mini.cluster().datanode(i);
      for (BlockLocation b : blocks) {
        assertEquals(DatanodeResult.NO_SUCH_BLOCK,
            assertThrows(DatanodeException.class, () -> dn.store().getBlock(b.block())).result());
      }
    }
    IOException failed = assertThrows(IOException.class,
        () -> blockClients.over(scm).read(blocks.subList(0, 1), bytes -> { }));
    DatanodeException cause = assertInstanceOf(DatanodeException.class, failed.getCause().getCause(),
        failed.toString());
    assertEquals(DatanodeResult.NO_SUCH_BLOCK, cause.result(), "reads of a deleted block");
  }

  /** With a fresh admin client: one right after an SCM restart may still be reconnecting. */
  private static void awaitOpenPipeline(MiniCluster mini) throws Exception {
    try (ScmAdminClient admin = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("an OPEN pipeline", MiniCluster.WAIT, () -> admin.listPipelines(PipelineState.OPEN),
          ps -> ps.size() == 1 && ps.get(0).hasLeader());
    }
  }

  @Test
  void deletedKeysBlocksGoFromEveryReplicaAlsoWhenScmRestartsBeforeSendingThem() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, CLUSTER)) {
      awaitOpenPipeline(mini);
      List<BlockLocation> kept;
      try (ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
        List<BlockLocation> deleted = write(scm, 3 * MB + 5);
        kept = write(scm, MB);
        List<Path> files = blockFiles(mini, deleted);
        assertEquals(Set.of("key-1"), scm.deleteKeyBlocks(List.of(key("key-1", deleted))));
        awaitDeleted(mini, files);
        assertUnreadable(mini, scm, deleted);
        assertEquals(MB, mini.cluster().datanode(1).store().getBlock(kept.get(0).block()).getLength(),
            "another key's block stays");
      }

      // An SCM that accepts a deletion and stops before it sends anything (its first run would be in an hour).
      mini.restartScm(Map.of("hdds.scm.block.deleting.service.interval", "1h"));
      awaitOpenPipeline(mini);
      List<BlockLocation> second;
      List<Path> files;
      try (ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
        second = write(scm, 2 * MB);
        files = blockFiles(mini, second);
        assertEquals(Set.of("key-2", "key-3"), scm.deleteKeyBlocks(List.of(key("key-2", second),
            key("key-3", List.of()))));
      }
      assertEquals(1, mini.cluster().scm().deletedBlockLog().size(), "one container: one transaction");
      assertTrue(files.stream().allMatch(Files::exists), "nothing is deleted before the restart");
      mini.restartScm(Map.of("hdds.scm.block.deleting.service.interval", FAST_DELETION));
      assertEquals(1, mini.cluster().scm().deletedBlockLog().size(), "the accepted deletion survived the restart");
      awaitDeleted(mini, files);
      try (ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
        assertUnreadable(mini, scm, second);
      }
      for (int i = 1; i <= 3; i++) {
        assertEquals(MB, mini.cluster().datanode(i).store().getBlock(kept.get(0).block()).getLength());
      }
    }
  }
}
