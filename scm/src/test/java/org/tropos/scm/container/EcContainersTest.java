package org.tropos.scm.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.DataSize;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.net.RackResolver;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.pipeline.PipelineLimits;
import org.tropos.scm.pipeline.PipelineManager;

/** Erasure-coded containers through the real container, node and pipeline managers over a real database. */
class EcContainersTest {
  private static final long MB = 1L << 20;
  private static final long GB = 1L << 30;
  private static final Duration STALE = Duration.ofSeconds(90);
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-1024k");
  /** dn0..dn2 on /rack0, dn3..dn5 on /rack1. */
  private static final RackResolver RACKS = (host, ip) -> "/rack" + (Integer.parseInt(host.substring(2)) / 3);
  private static final NodeReport ROOMY = NodeReport.newBuilder().addVolumes(VolumeReport.newBuilder()
      .setState(StorageState.NORMAL).setCapacityBytes(100 * GB).setAvailableBytes(50 * GB)).build();

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();
  private final ScheduledThreadPoolExecutor background = new ScheduledThreadPoolExecutor(1);
  private final CommandQueue commands = new CommandQueue();
  private final List<UUID> datanodes = new ArrayList<>();
  private ScmDb db;
  private NodeManager nodes;
  private ContainerManager containers;

  @BeforeEach
  void open() throws IOException, ScmException {
    db = ScmDb.open(dir);
    nodes = new NodeManager(db, RACKS, clock, STALE, STALE.multipliedBy(2), "CID-test", commands);
    PipelineManager pipelines = new PipelineManager(db, nodes, commands, new PipelineLimits(1, 2, 0), false, clock,
        Duration.ofMillis(100), background);
    // Containers of 6 MB and blocks of 4 MB: an rs-3-2 group holds up to 12 MB, 4 MB per replica; a container
    // holding two 6 MB groups (2 MB per replica each) could not take another whole group.
    containers = new ContainerManager(db, pipelines, nodes, commands, RACKS, DataSize.ofBytes(6 * MB),
        DataSize.ofBytes(4 * MB));
    containers.load();
    nodes.listen(containers);
    for (int i = 0; i < 6; i++) {
      UUID id = new UUID(0, i + 1);
      register(id);
      nodes.heartbeat(id, ROOMY, List.of(), List.of());
      datanodes.add(id);
    }
  }

  private void register(UUID id) throws ScmException {
    nodes.register(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id))
        .setHostName("dn" + (id.getLeastSignificantBits() - 1)).setIpAddress("127.0.0.1").build(), ROOMY, "");
  }

  @AfterEach
  void close() throws InterruptedException {
    background.shutdownNow();
    background.awaitTermination(10, TimeUnit.SECONDS);
    db.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  @Test
  void aGroupGoesToFiveNodesOverBothRacksAndReadersLearnEachIndex() throws ScmException {
    ContainerManager.Allocation group = containers.allocateEcBlock(6 * MB, RS_3_2, ExcludeList.getDefaultInstance());
    assertEquals(RS_3_2, group.ec());
    List<UUID> members = group.pipeline().members().stream().map(m -> m.id()).toList();
    assertEquals(5, members.stream().distinct().count());
    Map<String, Long> perRack = members.stream().collect(Collectors.groupingBy(
        m -> nodes.node(m).orElseThrow().details().getNetworkLocation(), Collectors.counting()));
    assertTrue(perRack.values().stream().allMatch(n -> n <= 3), "3 + 2 over two racks: " + perRack);

    ContainerInfo info = containers.containers(List.of(group.block().getContainerId()), "").get(0);
    assertEquals(RS_3_2.toProto(), info.getEc());
    assertEquals(List.of(1, 2, 3, 4, 5), info.getReplicaIndexesList());
    assertEquals(members, info.getReplicasList().stream().map(d -> Uuids.fromProto(d.getUuid())).toList());
    assertEquals(2 * MB, containers.container(group.block().getContainerId()).getAllocatedBytes(),
        "each replica takes a third of the group, parity as much as the first data unit");
  }

  @Test
  void aFullContainerIsClosedOnEveryMemberAndIsClosedWhenAllReportIt() throws ScmException {
    ContainerManager.Allocation first = containers.allocateEcBlock(6 * MB, RS_3_2, ExcludeList.getDefaultInstance());
    long id = first.block().getContainerId();
    assertEquals(ContainerState.CONTAINER_OPEN, containers.container(id).getState());
    ContainerManager.Allocation second = containers.allocateEcBlock(6 * MB, RS_3_2,
        ExcludeList.getDefaultInstance());
    assertEquals(id, second.block().getContainerId(), "the open container takes the next group");
    assertNotEquals(first.block().getLocalId(), second.block().getLocalId());
    assertEquals(ContainerState.CONTAINER_CLOSING, containers.container(id).getState(), "4 MB of 6 MB per replica:"
        + " another whole group would not fit");

    containers.closeContainers();
    List<UUID> members = members(id);
    for (int i = 0; i < members.size(); i++) {
      List<Integer> indexes = commands.drain(members.get(i)).stream().filter(ScmCommand::hasCloseContainer)
          .map(ScmCommand::getCloseContainer).filter(c -> c.getContainerId() == id && c.getEc().equals(
              RS_3_2.toProto())).map(c -> c.getReplicaIndex()).toList();
      assertEquals(List.of(i + 1), indexes, members.get(i) + " is told to close its replica, of its index");
    }
    for (int i = 0; i < members.size(); i++) {
      report(members.get(i), id, i + 1, i < 4 ? ContainerState.CONTAINER_CLOSED : ContainerState.CONTAINER_CLOSING);
      assertEquals(ContainerState.CONTAINER_CLOSING, containers.container(id).getState());
    }
    report(members.get(4), id, 5, ContainerState.CONTAINER_CLOSED);
    assertEquals(ContainerState.CONTAINER_CLOSED, containers.container(id).getState());
  }

  /**
   * A replica found damaged while SCM still waits for the container to close (the scrubber was faster than a
   * member's CLOSED report) does not keep it CLOSING: it closes on the others, and the index is rebuilt.
   */
  @Test
  void aReplicaFoundDamagedBeforeItsCloseWasHeardDoesNotKeepTheContainerClosing() throws ScmException {
    long id = containers.allocateEcBlock(MB, RS_3_2, ExcludeList.getDefaultInstance()).block().getContainerId();
    List<UUID> members = members(id);
    report(members.get(0), id, 1, ContainerState.CONTAINER_UNHEALTHY);
    assertEquals(ContainerState.CONTAINER_CLOSING, containers.container(id).getState(), "closed at once");
    for (int i = 1; i < members.size() - 1; i++) {
      report(members.get(i), id, i + 1, ContainerState.CONTAINER_CLOSED);
    }
    assertEquals(ContainerState.CONTAINER_CLOSING, containers.container(id).getState(), "a member not heard yet");
    report(members.get(members.size() - 1), id, members.size(), ContainerState.CONTAINER_CLOSED);
    assertEquals(ContainerState.CONTAINER_CLOSED, containers.container(id).getState());
  }

  @Test
  void aDeadMemberStopsItsContainersWhichCloseOnTheOthers() throws ScmException {
    long id = containers.allocateEcBlock(MB, RS_3_2, ExcludeList.getDefaultInstance()).block().getContainerId();
    List<UUID> members = members(id);
    UUID dead = members.get(2);
    clock.advance(STALE.multipliedBy(2));
    datanodes.stream().filter(d -> !d.equals(dead)).forEach(d -> commands.drain(d));
    datanodes.stream().filter(d -> !d.equals(dead)).forEach(d -> nodes.heartbeat(d, ROOMY, List.of(), List.of()));
    nodes.checkNodes();
    assertEquals(ContainerState.CONTAINER_CLOSING, containers.container(id).getState());
    for (UUID member : members) {
      if (!member.equals(dead)) {
        assertTrue(commands.drain(member).stream().anyMatch(c -> c.hasCloseContainer()
            && c.getCloseContainer().getContainerId() == id), member + " told to close at once, no round's grace");
      }
    }

    List<String> closed = new ArrayList<>();
    containers.onClosed(() -> closed.add("closed"));
    for (int i = 0; i < members.size(); i++) {
      if (!members.get(i).equals(dead)) {
        report(members.get(i), id, i + 1, ContainerState.CONTAINER_CLOSED);
      }
    }
    assertEquals(ContainerState.CONTAINER_CLOSED, containers.container(id).getState(),
        "closed without the lost index, which reconstruction rebuilds");
    assertEquals(List.of("closed"), closed, "replication told once, as the container closed");
  }

  @Test
  void anExcludedMemberSendsTheNextGroupElsewhere() throws ScmException {
    long id = containers.allocateEcBlock(MB, RS_3_2, ExcludeList.getDefaultInstance()).block().getContainerId();
    UUID failed = members(id).get(0);
    ContainerManager.Allocation next = containers.allocateEcBlock(MB, RS_3_2,
        ExcludeList.newBuilder().addDatanodes(Uuids.toProto(failed)).build());
    assertNotEquals(id, next.block().getContainerId());
    assertFalse(members(next.block().getContainerId()).contains(failed));
  }

  @Test
  void aDatanodeGetsNoIndexUntilItHeartbeatsAfterRegistering() throws ScmException {
    // A datanode starts its data path as it registers and heartbeats only once it is up: a client sent to it
    // in between finds its read port closed.
    UUID restarted = datanodes.get(0);
    register(restarted);
    long id = containers.allocateEcBlock(MB, RS_3_2, ExcludeList.getDefaultInstance()).block().getContainerId();
    assertFalse(nodes.node(restarted).orElseThrow().serving());
    assertEquals(Set.copyOf(datanodes.subList(1, 6)), Set.copyOf(members(id)), "on the five serving datanodes only");
    nodes.heartbeat(restarted, ROOMY, List.of(), List.of());
    assertTrue(nodes.node(restarted).orElseThrow().serving());
    List<UUID> members = members(containers.allocateEcBlock(MB, RS_3_2, ExcludeList.newBuilder()
        .addDatanodes(Uuids.toProto(datanodes.get(1))).build()).block().getContainerId());
    assertTrue(members.contains(restarted), "serving again after its heartbeat: " + members);
  }

  private List<UUID> members(long containerId) {
    return containers.container(containerId).getMembersList().stream().map(Uuids::fromProto).toList();
  }

  private void report(UUID datanode, long containerId, int index, ContainerState state) {
    nodes.heartbeat(datanode, ROOMY, List.of(), List.of(ContainerReport.newBuilder().setContainerId(containerId)
        .setState(state).setReplicaIndex(index).build()));
  }
}
