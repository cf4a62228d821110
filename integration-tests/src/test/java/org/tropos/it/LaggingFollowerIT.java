package org.tropos.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockClient;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.ReplicationFactor;

/**
 * A pipeline member that was down while its group took snapshots catches up when it comes back: the leader keeps
 * the log entries it lacks (a datanode's snapshot cannot be installed elsewhere), so every block written meanwhile
 * reaches it and reads back from it.
 */
@Timeout(300)
class LaggingFollowerIT {
  private static final int KB = 1024;
  private static final int MB = KB * KB;
  /**
   * A snapshot every 10 entries: 80 blocks of about 1 MB (one entry each) cross several and fill closed log
   * segments, which a snapshot lets the leader delete.
   */
  private static final Map<String, String> SETTINGS = Map.of("hdds.ratis.snapshot.threshold", "10",
      "ozone.scm.datanode.pipeline.limit", "1", "ozone.scm.stale.node.interval", "120s",
      "ozone.scm.dead.node.interval", "240s");
  /** Writes accept a majority at once: the third member is down. */
  private static final BlockWriteSettings MAJORITY = new BlockWriteSettings(4L << 20, 1 << 20,
      16 * KB, 4, 5, ReplicationFactor.THREE, Duration.ofMillis(1));

  @TempDir
  Path dir;

  @Test
  void aFollowerDownWhileItsGroupSnapshottedCatchesUpOnEveryBlock() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, SETTINGS);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress());
        BlockClient blocks = BlockClient.over(scm, "127.0.0.1")) {
      mini.awaitOpenPipelines(1);
      int lagging = 3;
      UUID follower = mini.cluster().datanode(lagging).id().uuid();
      mini.cluster().stopDatanode(lagging);
      List<BlockLocation> written = new ArrayList<>();
      for (int i = 0; i < 80; i++) {
        try (BlockWriter writer = blocks.newWriter(MAJORITY)) {
          writer.write(ByteBuffer.wrap(new byte[MB - i]));
          written.addAll(writer.finish());
        }
      }
      mini.cluster().startDatanode(lagging);
      for (BlockLocation block : written) {
        Await.until("block " + block + " on the datanode that was down (" + follower + ")", MiniCluster.WAIT,
            () -> readsFrom(scm, blocks, block, follower), ok -> ok);
      }
    }
  }

  /** Whether SCM lists {@code node}'s replica of the block's container, and the block reads back whole from it. */
  private static boolean readsFrom(ScmBlockClient scm, BlockClient reader, BlockLocation block, UUID node)
      throws Exception {
    List<DatanodeDetails> replica = scm.containers(List.of(block.block().getContainerId()), "127.0.0.1").get(0)
        .getReplicasList().stream().filter(r -> Uuids.fromProto(r.getUuid()).equals(node)).toList();
    if (replica.isEmpty()) {
      return false;
    }
    try {
      reader.read(block, replica, 0, block.length(), bytes -> { });
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
