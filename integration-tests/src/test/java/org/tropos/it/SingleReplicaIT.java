package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.client.internal.ratis.PipelineClient;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.db.ContainerRecord;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Keys with one replica end to end (Ozone's {@code ozone.replication=1}): SCM gives every datanode a RATIS/ONE
 * pipeline of its own, an S3 PUT and a Java client write go through them and read back; a bucket that asks for
 * three replicas still writes through RATIS/THREE pipelines in the same cluster; a one-replica key reads again
 * after its datanode restarted, through the same client.
 */
@Timeout(300)
class SingleReplicaIT {
  private static final int MB = 1 << 20;
  private static final Map<String, String> ONE_REPLICA = Map.of("ozone.replication", "1",
      "ozone.scm.pipeline.creation.auto.factor.one", "true");

  @TempDir
  Path dir;

  @Test
  void oneReplicaKeysGoThroughSingleNodePipelinesAndReadBack() throws Exception {
    try (S3Cluster cluster = new S3Cluster(dir, ONE_REPLICA)) {
      MiniCluster mini = cluster.mini();
      Set<UUID> singles = awaitSingleReplicaPipelines(mini);
      byte[] object = random(9 * MB + 123, 1);
      try (S3Client s3 = cluster.client("it")) {
        s3.createBucket(b -> b.bucket("single"));
        s3.putObject(b -> b.bucket("single").key("dir/object"), RequestBody.fromBytes(object));
        assertArrayEquals(object, s3.getObjectAsBytes(b -> b.bucket("single").key("dir/object")).asByteArray());
      }
      TroposClient tropos = cluster.tropos();
      assertThrough(mini, tropos.getKey("s3v", "single", "dir/object"), ReplicationFactor.ONE, singles);

      tropos.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("it").build());
      tropos.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("default").build());
      tropos.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("three")
          .setFactor(ReplicationFactor.THREE).build());
      byte[] key = random(5 * MB, 2);
      for (String bucket : List.of("default", "three")) {
        try (OutputStream out = tropos.createKey("vol1", bucket, "key", key.length)) {
          out.write(key);
        }
        try (InputStream in = tropos.readKey("vol1", bucket, "key")) {
          assertArrayEquals(key, in.readAllBytes(), bucket);
        }
      }
      assertThrough(mini, tropos.getKey("vol1", "default", "key"), ReplicationFactor.ONE, singles);
      assertThrough(mini, tropos.getKey("vol1", "three", "key"), ReplicationFactor.THREE, singles);

      // The client kept its connection to the one replica's read server; once that closed, a read opens anew.
      for (int i = 1; i <= 3; i++) {
        mini.cluster().stopDatanode(i);
        mini.cluster().startDatanode(i);
      }
      try (InputStream in = tropos.readKey("vol1", "default", "key")) {
        assertArrayEquals(key, in.readAllBytes(), "read again after the datanodes restarted");
      }
    }
  }

  /**
   * A single-member pipeline's write reply already says its one member committed the entry, so the watch for
   * every replica answers from it without a round trip: it completes even after the datanode stopped. A watch
   * for an entry not written yet still asks the datanode (and so cannot complete while it is down).
   */
  @Test
  void aWatchOnASingleMemberPipelineIsAnsweredByTheWriteReply() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, ONE_REPLICA)) {
      awaitSingleReplicaPipelines(mini);
      PipelineInfo single;
      try (ScmAdminClient admin = new ScmAdminClient(mini.scmClientAddress())) {
        single = singles(admin).get(0);
      }
      UUID member = Uuids.fromProto(single.getMembers(0).getDatanode().getUuid());
      byte[] data = random(100 << 10, 3);
      ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), 16 << 10);
      BlockId block = BlockId.newBuilder().setContainerId(1).setLocalId(1).build();
      try (PipelineClient pipeline = new PipelineClient(Uuids.fromProto(single.getId().getId()),
          List.of(single.getMembers(0).getDatanode()), member)) {
        long index = pipeline.writeLastChunk(block, BlockToken.getDefaultInstance(), 0, ByteBuffer.wrap(data), sums,
            data.length, sums).join().logIndex();
        for (int i = 1; i <= 3; i++) {
          if (mini.cluster().datanode(i).id().uuid().equals(member)) {
            mini.cluster().stopDatanode(i);
          }
        }
        assertTrue(pipeline.watch(index, ReplicationLevel.ALL_COMMITTED).isDone(), "answered by the write reply");
        pipeline.watch(index, ReplicationLevel.ALL_COMMITTED).join();
        // Not index + 1: the leader's own metadata entry after the write may be committed by the time it replies.
        assertFalse(pipeline.watch(index + 1_000, ReplicationLevel.ALL_COMMITTED).isDone(),
            "a watch for an entry not written yet must ask the stopped datanode");
      }
    }
  }

  /** Waits until every datanode is the one member of an OPEN RATIS/ONE pipeline; returns their ids. */
  private static Set<UUID> awaitSingleReplicaPipelines(MiniCluster mini) throws Exception {
    try (ScmAdminClient admin = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("a RATIS/ONE pipeline with a leader on each of the 3 datanodes", MiniCluster.WAIT,
          () -> singles(admin), ps -> ps.size() == 3 && ps.stream().allMatch(PipelineInfo::hasLeader));
      List<PipelineInfo> singles = singles(admin);
      singles.forEach(p -> assertEquals(1, p.getMembersCount()));
      assertEquals(3, singles.stream().map(p -> p.getMembers(0).getDatanode().getUuid()).distinct().count(),
          "one on each datanode");
      return singles.stream().map(p -> Uuids.fromProto(p.getId().getId())).collect(Collectors.toSet());
    }
  }

  private static List<PipelineInfo> singles(ScmAdminClient admin) throws Exception {
    return admin.listPipelines(PipelineState.OPEN).stream().filter(p -> p.getFactor() == ReplicationFactor.ONE)
        .toList();
  }

  /** The key has {@code factor} and each of its blocks is in a container of a pipeline of that size. */
  private static void assertThrough(MiniCluster mini, KeyInfo key, ReplicationFactor factor, Set<UUID> singles) {
    assertEquals(factor, key.getFactor(), key.getName());
    assertTrue(key.getBlocksCount() > 0, key.getName());
    for (KeyBlock block : key.getBlocksList()) {
      ContainerRecord container = mini.cluster().scm().containerManager()
          .container(block.getBlockId().getContainerId());
      boolean single = singles.contains(Uuids.fromProto(container.getPipelineId().getId()));
      assertEquals(factor == ReplicationFactor.ONE, single, key.getName() + " block in container "
          + container.getContainerId());
      assertEquals(factor == ReplicationFactor.ONE ? 1 : 3, container.getMembersCount());
    }
  }

  private static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
