package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.RaftLogDirReport;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeManager;

class PipelineManagerTest {
  private static final long GB = 1L << 30;
  private static final Duration STALE = Duration.ofSeconds(90);
  private static final Duration HEARTBEAT = Duration.ofMillis(100);
  private static final RackResolver RACKS = (host, ip) -> host.equals("dn1") ? "/rack1" : "/rack2";
  private static final NodeReport ROOMY = NodeReport.newBuilder()
      .addVolumes(VolumeReport.newBuilder().setState(StorageState.NORMAL).setCapacityBytes(100 * GB)
          .setAvailableBytes(50 * GB))
      .addRaftLogDirs(RaftLogDirReport.newBuilder().setState(StorageState.NORMAL).setCapacityBytes(10 * GB)
          .setAvailableBytes(5 * GB))
      .build();

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();
  /** Runs the fills the manager schedules; shut down (after running what it holds) to wait for them. */
  private final ScheduledThreadPoolExecutor background = new ScheduledThreadPoolExecutor(1);
  private final List<UUID> datanodes = new ArrayList<>();
  private ScmDb db;
  private NodeManager nodes;
  private PipelineManager pipelines;

  @BeforeEach
  void open() throws IOException {
    db = ScmDb.open(dir);
    CommandQueue commands = new CommandQueue();
    nodes = new NodeManager(db, RACKS, clock, STALE, STALE.multipliedBy(10), "CID-test", commands);
    pipelines = new PipelineManager(db, nodes, commands, new PipelineLimits(1, 2, 0), false, clock, HEARTBEAT,
        background);
  }

  @AfterEach
  void close() throws InterruptedException {
    background.shutdownNow();
    background.awaitTermination(10, TimeUnit.SECONDS);
    db.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private void register(String host) throws ScmException {
    UUID id = UUID.randomUUID();
    nodes.register(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id)).setHostName(host)
        .setIpAddress("127.0.0.1").build(), ROOMY, "");
    datanodes.add(id);
  }

  private void heartbeatAll() {
    datanodes.forEach(id -> nodes.heartbeat(id, ROOMY, List.of(), List.of()));
  }

  private int live() {
    return pipelines.list(PipelineState.ALLOCATED).size() + pipelines.list(PipelineState.OPEN).size();
  }

  @Test
  void nodesHealthyAgainAfterAllWentStaleGetPipelinesWithoutWaitingForThePeriodicFill() throws Exception {
    register("dn1");
    register("dn2");
    register("dn3");
    // Listening only now: the fill that registrations schedule must not be what brings the pipeline back.
    nodes.listen(pipelines);
    pipelines.fillToLimits();
    assertEquals(1, live(), "one RATIS/THREE pipeline at a limit of one per node");

    clock.advance(STALE);
    nodes.checkNodes();
    datanodes.forEach(id -> assertEquals(NodeState.STALE,
        nodes.nodes().stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow().state()));
    assertEquals(0, live(), "a STALE member's pipeline is closed");

    heartbeatAll();
    // Shut down, the executor still runs the fill it was handed (after the settling pause) and then ends.
    background.shutdown();
    assertTrue(background.awaitTermination(30, TimeUnit.SECONDS), "the scheduled fill never ran");
    assertEquals(1, live(), "the nodes HEALTHY again got their pipeline back");
  }
}
