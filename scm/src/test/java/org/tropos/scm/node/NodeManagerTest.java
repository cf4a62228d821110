package org.tropos.scm.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.net.RackResolver;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.db.ScmDb;

class NodeManagerTest {
  private static final Duration STALE = Duration.ofSeconds(90);
  private static final Duration DEAD = Duration.ofMinutes(10);
  private static final RackResolver RACKS = (host, ip) -> host.endsWith("1") ? "/rack1" : "/rack2";

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();
  private final CommandQueue commands = new CommandQueue();
  private ScmDb db;
  private NodeManager nodes;

  @BeforeEach
  void open() throws IOException {
    db = ScmDb.open(dir);
    nodes = newManager();
  }

  @AfterEach
  void close() {
    db.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private NodeManager newManager() {
    return new NodeManager(db, RACKS, clock, STALE, DEAD, "CID-test", commands);
  }

  private static DatanodeDetails node(UUID id, String host) {
    return DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id)).setHostName(host).setIpAddress("127.0.0.1").build();
  }

  private NodeState stateOf(UUID id) {
    return nodes.nodes().stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow().state();
  }

  @Test
  void registrationMakesANodeHealthyOnItsRack() throws ScmException {
    UUID id = UUID.randomUUID();
    DatanodeDetails registered = nodes.register(node(id, "dn1"), NodeReport.getDefaultInstance(), "");
    assertEquals("/rack1", registered.getNetworkLocation());
    assertEquals(NodeState.HEALTHY, stateOf(id));
  }

  @Test
  void silentNodeGoesStaleThenDeadAndAHeartbeatBringsItBack() throws ScmException {
    UUID id = UUID.randomUUID();
    nodes.register(node(id, "dn1"), NodeReport.getDefaultInstance(), "");
    clock.advance(STALE.minusMillis(1));
    nodes.checkNodes();
    assertEquals(NodeState.HEALTHY, stateOf(id));
    clock.advance(Duration.ofMillis(1));
    nodes.checkNodes();
    assertEquals(NodeState.STALE, stateOf(id));
    assertEquals(List.of(), nodes.heartbeat(id, NodeReport.getDefaultInstance(), List.of(), List.of()));
    assertEquals(NodeState.HEALTHY, stateOf(id));
    clock.advance(DEAD);
    nodes.checkNodes();
    assertEquals(NodeState.DEAD, stateOf(id), "a node silent past the dead interval is DEAD even if never STALE");
    nodes.heartbeat(id, NodeReport.getDefaultInstance(), List.of(), List.of());
    assertEquals(NodeState.HEALTHY, stateOf(id));
  }

  @Test
  void ageingNeverPromotes() throws ScmException {
    UUID id = UUID.randomUUID();
    nodes.register(node(id, "dn1"), NodeReport.getDefaultInstance(), "");
    clock.advance(DEAD);
    nodes.checkNodes();
    nodes.checkNodes();
    assertEquals(NodeState.DEAD, stateOf(id));
  }

  @Test
  void heartbeatFromAnUnknownNodeAsksItToRegister() {
    List<ScmCommand> commands = nodes.heartbeat(UUID.randomUUID(), NodeReport.getDefaultInstance(), List.of(), List.of());
    assertEquals(1, commands.size());
    assertTrue(commands.get(0).hasReregister());
  }

  @Test
  void nodesSurviveARestartAsStaleUntilTheyRegisterAgain() throws ScmException, IOException {
    UUID id = UUID.randomUUID();
    nodes.register(node(id, "dn2"), NodeReport.getDefaultInstance(), "");
    nodes = newManager();
    nodes.load();
    assertEquals(NodeState.STALE, stateOf(id));
    assertEquals(-1, nodes.nodes().get(0).lastHeartbeatAgeMs());
    assertTrue(nodes.heartbeat(id, NodeReport.getDefaultInstance(), List.of(), List.of()).get(0).hasReregister());
    nodes.register(node(id, "dn2"), NodeReport.getDefaultInstance(), "CID-test");
    assertEquals(NodeState.HEALTHY, stateOf(id));
    assertEquals("/rack2", nodes.nodes().get(0).details().getNetworkLocation());
    assertFalse(nodes.nodes().get(0).serving(), "registered: its data path is starting");
    nodes.heartbeat(id, NodeReport.getDefaultInstance(), List.of(), List.of());
    assertTrue(nodes.nodes().get(0).serving(), "a heartbeat after the registration: its data path is up");
    nodes.register(node(id, "dn2"), NodeReport.getDefaultInstance(), "CID-test");
    assertFalse(nodes.nodes().get(0).serving(), "registered again (e.g. restarted): not until it heartbeats");
  }

  @Test
  void eventsReportTransitionsAndQueuedCommandsRideTheNextHeartbeat() throws ScmException {
    List<String> events = new java.util.ArrayList<>();
    nodes.listen(new NodeEvents() {
      @Override
      public void registered(UUID datanode) {
        events.add("registered");
      }

      @Override
      public void stateChanged(UUID datanode, NodeState from, NodeState to) {
        events.add(from + "->" + to);
      }
    });
    UUID id = UUID.randomUUID();
    nodes.register(node(id, "dn1"), NodeReport.getDefaultInstance(), "");
    clock.advance(STALE);
    nodes.checkNodes();
    ScmCommand close = ScmCommand.newBuilder().setClosePipeline(
        org.tropos.proto.scm.ClosePipelineCommand.getDefaultInstance()).build();
    commands.add(id, close);
    assertEquals(List.of(close), nodes.heartbeat(id, NodeReport.getDefaultInstance(), List.of(), List.of()));
    assertEquals(List.of(), nodes.heartbeat(id, NodeReport.getDefaultInstance(), List.of(), List.of()), "drained once");
    assertEquals(List.of("registered", "HEALTHY->STALE", "STALE->HEALTHY"), events);
  }

  @Test
  void nodeOfAnotherClusterIsRefused() {
    ScmException e = assertThrows(ScmException.class,
        () -> nodes.register(node(UUID.randomUUID(), "dn1"), NodeReport.getDefaultInstance(), "CID-other"));
    assertEquals(ScmResult.CLUSTER_ID_MISMATCH, e.result());
  }

  /**
   * A node leaves service only through its drain, and a DECOMMISSIONED one returns to service before maintenance:
   * other moves are refused, recorded nowhere and told to no listener.
   */
  @Test
  void operationalMovesOutsideTheTableAreRefusedAndChangeNothing() throws Exception {
    UUID id = UUID.randomUUID();
    nodes.register(node(id, "dn1"), NodeReport.getDefaultInstance(), "");
    List<String> told = new java.util.ArrayList<>();
    nodes.listen(new NodeEvents() {
      @Override
      public void operationalStateChanged(UUID datanode, NodeOperationalState from, NodeOperationalState to) {
        told.add(from + "->" + to);
      }
    });
    ScmException skipped = assertThrows(ScmException.class,
        () -> nodes.setOperationalState(id, NodeOperationalState.DECOMMISSIONED, 0));
    assertEquals(ScmResult.INVALID_REQUEST, skipped.result());
    assertTrue(skipped.getMessage().contains("is IN_SERVICE and cannot become DECOMMISSIONED"), skipped.getMessage());
    assertThrows(ScmException.class, () -> nodes.setOperationalState(id, NodeOperationalState.IN_MAINTENANCE, 0));

    nodes.setOperationalState(id, NodeOperationalState.DECOMMISSIONING, 0);
    nodes.setOperationalState(id, NodeOperationalState.DECOMMISSIONED, 0);
    assertThrows(ScmException.class,
        () -> nodes.setOperationalState(id, NodeOperationalState.ENTERING_MAINTENANCE, 0));
    assertEquals(List.of("IN_SERVICE->DECOMMISSIONING", "DECOMMISSIONING->DECOMMISSIONED"), told);
    nodes = newManager();
    nodes.load();
    assertEquals(NodeOperationalState.DECOMMISSIONED, nodes.nodes().get(0).operationalState(), "as recorded");
  }
}
