package org.tropos.scm.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.scm.db.ScmDb;

/** What an SCM heard from the datanodes while it followed, handed to the node manager it starts when it leads. */
class HeardDatanodesTest {
  private static final Duration STALE = Duration.ofSeconds(90);

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();
  private final CommandQueue commands = new CommandQueue();
  private final HeardDatanodes heard = new HeardDatanodes(clock);
  private ScmDb db;

  @BeforeEach
  void open() throws IOException {
    db = ScmDb.open(dir);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static RegisterRequest registration(UUID id, String host) {
    return RegisterRequest.newBuilder().setDatanode(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id))
        .setHostName(host).setIpAddress("127.0.0.1")).setNodeReport(NodeReport.getDefaultInstance()).build();
  }

  private static HeartbeatRequest heartbeat(UUID id, long containerId) {
    return HeartbeatRequest.newBuilder().setDatanodeUuid(Uuids.toProto(id))
        .addContainerReports(ContainerReport.newBuilder().setContainerId(containerId)).build();
  }

  private NodeManager newManager(Map<UUID, List<ContainerReport>> reported) {
    NodeManager nodes = new NodeManager(db, (host, ip) -> "/rack1", clock, STALE, Duration.ofMinutes(10), "CID-test",
        commands);
    nodes.listen(new NodeEvents() {
      @Override
      public void containersReported(UUID datanode, List<ContainerReport> reports) {
        reported.put(datanode, reports);
      }
    });
    return nodes;
  }

  @Test
  void aNewLeaderKnowsTheNodesHeardRecentlyWithTheirLastReportsAndTakesNoCommandForThem() throws Exception {
    UUID recent = UUID.randomUUID();
    UUID old = UUID.randomUUID();
    UUID onlyRegistered = UUID.randomUUID();
    heard.registered(registration(old, "dn-old"));
    assertTrue(heard.heartbeat(heartbeat(old, 1)));
    clock.advance(STALE.plusSeconds(1));
    heard.registered(registration(recent, "dn-recent"));
    assertTrue(heard.heartbeat(heartbeat(recent, 2)));
    assertTrue(heard.heartbeat(heartbeat(recent, 3)), "the last heartbeat replaces the one before");
    heard.registered(registration(onlyRegistered, "dn-new"));
    assertFalse(heard.heartbeat(heartbeat(UUID.randomUUID(), 4)), "a node that never registered here must");
    clock.advance(Duration.ofSeconds(10));
    ScmCommand waiting = ScmCommand.newBuilder().setCloseContainer(CloseContainerCommand.newBuilder()
        .setContainerId(3)).build();
    commands.add(recent, waiting);

    Map<UUID, List<ContainerReport>> reported = new ConcurrentHashMap<>();
    NodeManager nodes = newManager(reported);
    heard.handTo(nodes, STALE);

    NodeStatus status = nodes.node(recent).orElseThrow();
    assertEquals(NodeState.HEALTHY, status.state());
    assertEquals(10_000, status.lastHeartbeatAgeMs(), "last heard when the follower heard it, not when handed over");
    assertEquals(3, reported.get(recent).get(0).getContainerId(), "the replicas of its last heartbeat");
    assertEquals(NodeState.HEALTHY, nodes.node(onlyRegistered).orElseThrow().state());
    assertFalse(reported.containsKey(onlyRegistered));
    assertTrue(nodes.node(old).isEmpty(), "a node silent for longer than the stale interval must register again");
    assertEquals(List.of(waiting), nodes.heartbeat(recent, NodeReport.getDefaultInstance(), List.of(), List.of()),
        "the commands waiting for it go with its next real heartbeat");
    clock.advance(STALE.minusSeconds(10));
    nodes.checkNodes();
    assertEquals(NodeState.STALE, nodes.node(onlyRegistered).orElseThrow().state(), "aged from when it was heard");
  }
}
