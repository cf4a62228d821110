package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.DatanodeAdminResult;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.tools.local.LocalCluster;

/**
 * Draining datanodes on five over two racks: a decommissioned node's containers get three replicas elsewhere
 * while readers read everything without a failure, it ends DECOMMISSIONED and stays so across an SCM restart;
 * a node in maintenance can be stopped without its containers being copied, and returns to service.
 */
@Timeout(300)
class DecommissionIT {
  private static final Duration DRAIN = Duration.ofSeconds(90);
  private static final long REPLICATION_ROUND_MS = 300;
  /** Stale and dead after 3 s and 6 s: readers keep both cores busy, and a heartbeat may come late. */
  private static final Map<String, String> SETTINGS = Map.of(
      "ozone.scm.block.size", "1MB", "ozone.scm.container.size", "4MB",
      "ozone.scm.stale.node.interval", "3s", "ozone.scm.dead.node.interval", "6s",
      "hdds.scm.replication.thread.interval", REPLICATION_ROUND_MS + "ms",
      "hdds.scm.replication.event.timeout", "20s",
      "hdds.scm.replication.event.timeout.datanode.offset", "2s");

  @TempDir
  Path dir;
  private final WrittenBlocks written = new WrittenBlocks();

  @AfterEach
  void closeClients() {
    written.close();
  }

  private static NodeOperationalState state(ScmAdminClient admin, UUID node) throws Exception {
    return admin.listDatanodes(org.tropos.proto.hdds.NodeState.NODE_STATE_UNSPECIFIED).stream()
        .filter(d -> Uuids.fromProto(d.getDetails().getUuid()).equals(node)).findFirst()
        .map(DatanodeStatus::getOperationalState).orElseThrow();
  }

  private static String pipelinesOf(ScmAdminClient admin, UUID node) {
    try {
      return admin.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED).stream().filter(p -> p.getMembersList()
          .stream().anyMatch(m -> Uuids.fromProto(m.getDatanode().getUuid()).equals(node))).toList().toString();
    } catch (Exception e) {
      return e.toString();
    }
  }

  @Test
  void aDecommissionedNodesDataMovesWhileEveryReadSucceedsAndMaintenanceCopiesNothing() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 5, 1, SETTINGS);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress());
        ScmAdminClient admin = new ScmAdminClient(mini.scmClientAddress())) {
      mini.awaitOpenPipelines(3);
      written.write(scm, 8, 11);
      ReplicaChecks.awaitHealed(mini, DRAIN);
      UUID first = mini.cluster().datanode(1).id().uuid();
      assertTrue(mini.cluster().datanode(1).store().containers().size() > 0, "datanode 1 holds replicas");

      AtomicInteger reads = new AtomicInteger();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicBoolean draining = new AtomicBoolean(true);
      Thread reader = new Thread(() -> {
        while (draining.get() && failure.get() == null) {
          try {
            written.readAll(scm);
            reads.incrementAndGet();
            Thread.sleep(100); // paces the reader: reads go on through the drain without flooding it
          } catch (Exception e) {
            failure.set(e);
          }
        }
      }, "reader");
      reader.start();
      Await.until("readers at work", DRAIN, reads::get, n -> n > 0);
      List<DatanodeAdminResult> results = admin.decommission(List.of(LocalCluster.datanodeAddress(1), "no-such-host"));
      assertEquals(NodeOperationalState.DECOMMISSIONING, results.get(0).getOperationalState());
      assertTrue(results.get(1).getError().contains("no datanode is named no-such-host"), results.get(1).getError());
      Await.until("datanode 1 DECOMMISSIONED", DRAIN, () -> state(admin, first),
          s -> s == NodeOperationalState.DECOMMISSIONED);
      int passesBefore = reads.get();
      Await.until("a full read pass after the decommission", DRAIN, reads::get,
          n -> n > passesBefore + 1 || failure.get() != null);
      draining.set(false);
      reader.join();
      assertEquals(null, failure.get(), "a read failed during the decommission");
      assertTrue(ReplicaChecks.problems(mini, Set.of(1)).isEmpty(), ReplicaChecks.problems(mini, Set.of(1)).toString());
      assertTrue(admin.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED).stream().noneMatch(p -> p
          .getMembersList().stream().anyMatch(m -> Uuids.fromProto(m.getDatanode().getUuid()).equals(first))),
          () -> "a decommissioned node is in no pipeline: " + pipelinesOf(admin, first));

      mini.restartScm();
      try (ScmAdminClient again = new ScmAdminClient(mini.scmClientAddress())) {
        assertEquals(NodeOperationalState.DECOMMISSIONED, state(again, first), "the state survives SCM's restart");
        mini.cluster().stopDatanode(1);

        UUID second = mini.cluster().datanode(2).id().uuid();
        again.startMaintenance(List.of(second.toString()), 0);
        Await.until("datanode 2 IN_MAINTENANCE", DRAIN, () -> state(again, second),
            s -> s == NodeOperationalState.IN_MAINTENANCE);
        long replicasOn2 = mini.cluster().datanode(2).store().containers().size();
        mini.cluster().stopDatanode(2);
        mini.awaitState(second, org.tropos.proto.hdds.NodeState.DEAD);
        // Two whole replication rounds that saw the node DEAD: what they would copy is under way by then.
        long seenDead = again.replicationReport().getLastRunEpochMs();
        Await.until("two replication rounds with datanode 2 DEAD", DRAIN,
            () -> again.replicationReport().getLastRunEpochMs(), last -> last > seenDead + REPLICATION_ROUND_MS);
        assertTrue(again.replicationReport().getCopiesInFlight() == 0
            && again.replicationReport().getCountsList().stream().noneMatch(c -> c.getHealth()
                == ContainerHealth.UNDER_REPLICATED || c.getHealth() == ContainerHealth.MISSING),
            "a node in maintenance keeps its " + replicasOn2 + " replicas counted: " + again.replicationReport());
        written.readAll(scm);

        again.recommission(List.of(second.toString()));
        mini.cluster().startDatanode(2);
        Await.until("datanode 2 back in service and in a pipeline", DRAIN, () -> again.listDatanodes(
            org.tropos.proto.hdds.NodeState.NODE_STATE_UNSPECIFIED).stream()
            .filter(d -> Uuids.fromProto(d.getDetails().getUuid()).equals(second)).findFirst().orElseThrow(),
            d -> d.getOperationalState() == NodeOperationalState.IN_SERVICE && d.getPipelineCount() > 0);
      }
    }
  }
}
