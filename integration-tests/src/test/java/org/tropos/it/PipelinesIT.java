package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;

/** Multi-Raft pipelines on six real datanodes (real Ratis) in two racks, limit 3, two RaftLog dirs each. */
@Timeout(180)
class PipelinesIT {
  private static final Map<String, String> LIMIT_3 = Map.of("ozone.scm.datanode.pipeline.limit", "3");

  @TempDir
  Path dir;

  private static List<PipelineInfo> open(ScmAdminClient scm) throws Exception {
    return scm.listPipelines(PipelineState.OPEN);
  }

  private static Set<String> racks(PipelineInfo p) {
    return p.getMembersList().stream().map(m -> m.getDatanode().getNetworkLocation()).collect(Collectors.toSet());
  }

  private static UUID leaderOf(PipelineInfo p) {
    return p.hasLeader() ? Uuids.fromProto(p.getLeader()) : null;
  }

  @Test
  void sixNodesGetSixPipelinesOnTwoRacksWithLeadersAndLogsSpread() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 6, 2, LIMIT_3);
        ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("6 OPEN pipelines with one leader per node", MiniCluster.WAIT, () -> open(scm),
          ps -> ps.size() == 6 && leadersPerNode(ps).values().stream().allMatch(c -> c == 1)
              && leadersPerNode(ps).size() == 6);
      List<PipelineInfo> pipelines = open(scm);
      assertEquals(6, scm.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED).size(), "no more than the limit");
      Map<String, Map<String, Integer>> logsPerNode = new HashMap<>();
      for (PipelineInfo p : pipelines) {
        assertEquals(ReplicationFactor.THREE, p.getFactor());
        assertEquals(Set.of("/rack1", "/rack2"), racks(p), "every pipeline spans both racks");
        for (PipelineMember m : p.getMembersList()) {
          logsPerNode.computeIfAbsent(m.getDatanode().getHostName(), h -> new HashMap<>())
              .merge(m.getLogDir(), 1, Integer::sum);
        }
      }
      assertEquals(6, logsPerNode.size());
      logsPerNode.forEach((host, perDir) -> {
        assertEquals(2, perDir.size(), host + " uses both RaftLog disks: " + perDir);
        assertEquals(3, perDir.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(perDir.values().stream().allMatch(c -> c == 1 || c == 2), host + " splits 2/1: " + perDir);
      });
      mini.datanodes().forEach(d -> assertEquals(3, d.getPipelineCount()));
    }
  }

  @Test
  void aLostDatanodesPipelinesCloseAndReplacementsOpenOnTheOthers() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 6, 2, LIMIT_3);
        ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("6 OPEN pipelines", MiniCluster.WAIT, () -> open(scm), ps -> ps.size() == 6);
      UUID lost = mini.cluster().datanode(3).id().uuid();
      mini.cluster().stopDatanode(3);
      // 3 pipelines survive; the 6 slots the lost node's 3 freed on the others hold up to 2 more, as many as
      // their spread over nodes and racks allows.
      Await.until("no pipeline on the lost datanode and replacements OPEN on the others", MiniCluster.WAIT,
          () -> scm.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED),
          ps -> ps.stream().noneMatch(p -> members(p).contains(lost))
              && ps.stream().filter(p -> p.getState() == PipelineState.OPEN).count() >= 4
              && ps.stream().allMatch(p -> p.getState() == PipelineState.OPEN));
      for (PipelineInfo p : open(scm)) {
        assertEquals(2, racks(p).size());
        assertFalse(members(p).contains(lost));
      }
    }
  }

  @Test
  void restartedScmBringsTheSamePipelinesBack() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 6, 2, LIMIT_3)) {
      Set<UUID> before;
      try (ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
        Await.until("6 OPEN pipelines", MiniCluster.WAIT, () -> open(scm), ps -> ps.size() == 6);
        before = ids(open(scm));
      }
      mini.restartScm();
      try (ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
        assertEquals(before, ids(scm.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED)),
            "reloaded from SCM's database");
        mini.awaitAllHealthy();
        Await.until("the same 6 pipelines OPEN, each node leading one again", MiniCluster.WAIT, () -> open(scm),
            ps -> ids(ps).equals(before) && ps.stream().allMatch(p -> p.hasLeader())
                && leadersPerNode(ps).size() == 6);
        assertEquals(before, ids(scm.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED)), "no new pipelines");
      }
    }
  }

  /** A restart shorter than the stale interval: the node keeps its pipelines and leadership evens out again. */
  @Test
  void leadershipEvensOutAgainAfterALeaderRestarts() throws Exception {
    Map<String, String> settings = Map.of("ozone.scm.datanode.pipeline.limit", "3",
        "ozone.scm.stale.node.interval", "15s", "ozone.scm.dead.node.interval", "30s");
    try (MiniCluster mini = new MiniCluster(dir, 6, 2, settings);
        ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("one leader per node", MiniCluster.WAIT, () -> open(scm), ps -> ps.size() == 6
          && leadersPerNode(ps).size() == 6);
      Set<UUID> before = ids(open(scm));
      mini.cluster().stopDatanode(2);
      mini.cluster().startDatanode(2);
      Await.until("the restarted node back and every node leading one pipeline", MiniCluster.WAIT,
          () -> open(scm), ps -> ps.size() == 6 && leadersPerNode(ps).size() == 6
              && leadersPerNode(ps).values().stream().allMatch(c -> c == 1));
      assertEquals(before, ids(open(scm)), "a restart within the stale interval keeps every pipeline");
    }
  }

  @Test
  void administratorsCreateDeactivateActivateAndClosePipelines() throws Exception {
    Map<String, String> settings = Map.of("ozone.scm.datanode.pipeline.limit", "2",
        "ozone.scm.pipeline.creation.interval", "1h");
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, settings);
        ScmAdminClient scm = new ScmAdminClient(mini.scmClientAddress())) {
      mini.awaitAllHealthy();
      Await.until("the fill after registration", MiniCluster.WAIT, () -> open(scm), ps -> ps.size() == 2);
      UUID id = Uuids.fromProto(open(scm).get(0).getId().getId());
      assertEquals(PipelineState.DORMANT, scm.deactivatePipeline(id).getState());
      assertEquals(PipelineState.OPEN, scm.activatePipeline(id).getState());
      assertEquals(PipelineState.CLOSED, scm.closePipeline(id).getState());
      Await.until("the members leave the closed group", MiniCluster.WAIT, () -> mini.cluster().datanode(1)
          .pipelineReports().stream().map(r -> Uuids.fromProto(r.getPipelineId().getId())).toList(),
          hosted -> !hosted.contains(id));
      PipelineInfo created = scm.createPipeline(ReplicationFactor.THREE);
      assertEquals(PipelineState.ALLOCATED, created.getState());
      UUID createdId = Uuids.fromProto(created.getId().getId());
      Await.until("the new pipeline OPEN", MiniCluster.WAIT, () -> open(scm),
          ps -> ids(ps).contains(createdId));
    }
  }

  private static Set<UUID> members(PipelineInfo p) {
    return p.getMembersList().stream().map(m -> Uuids.fromProto(m.getDatanode().getUuid())).collect(Collectors.toSet());
  }

  private static Set<UUID> ids(List<PipelineInfo> pipelines) {
    return pipelines.stream().map(p -> Uuids.fromProto(p.getId().getId())).collect(Collectors.toSet());
  }

  private static Map<UUID, Integer> leadersPerNode(List<PipelineInfo> pipelines) {
    Map<UUID, Integer> leaders = new HashMap<>();
    pipelines.stream().map(PipelinesIT::leaderOf).filter(java.util.Objects::nonNull)
        .forEach(l -> leaders.merge(l, 1, Integer::sum));
    return leaders;
  }
}
