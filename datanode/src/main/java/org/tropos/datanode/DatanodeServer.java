package org.tropos.datanode;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Closer;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.common.util.Uuids;
import org.tropos.common.util.VersionInfo;
import org.tropos.datanode.ratis.PipelineCommandHandler;
import org.tropos.datanode.ratis.RatisPipelines;
import org.tropos.datanode.scm.ScmHeartbeat;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmResult;

/**
 * The datanode process: builds its components, starts them, stops them in reverse order. It holds no logic of
 * its own and is never handed to a component.
 */
public final class DatanodeServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeServer.class);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private final DatanodeConfig config;
  private final String name;
  private final LifeCycle lifeCycle;
  private volatile DatanodeId id;
  private VolumeSet volumes;
  private ExecutorService diskProbes;
  private ScheduledExecutorService diskChecker;
  private RatisPipelines ratis;
  private PipelineCommandHandler pipelineCommands;
  private ScmHeartbeat heartbeat;

  public DatanodeServer(DatanodeConfig config) {
    this.config = config;
    this.name = "dn-" + config.hostName();
    this.lifeCycle = new LifeCycle(name);
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    try {
      id = DatanodeId.loadOrCreate(config.idDir());
      volumes = new VolumeSet(name, config.dataDirs(), config.raftLogDirs());
      volumes.createDirectories();
      if (!id.clusterId().isEmpty()) {
        volumes.format(id.uuid(), id.clusterId());
      }
      startDiskChecks();
      startRatis();
      heartbeat = new ScmHeartbeat(name, config.scm(), config.heartbeatInterval(), this::details,
          this::nodeReport, this::pipelineReports, this::registered, this::onCommand);
      heartbeat.start();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    lifeCycle.startEnds();
    LOG.info("{}: datanode {} started (version {}): {} data volumes, {} RaftLog directories, SCM at {}", name,
        id.uuid(), VersionInfo.version(), config.dataDirs().size(), config.raftLogDirs().size(), config.scm());
  }

  private void startDiskChecks() {
    int dirs = config.dataDirs().size() + config.raftLogDirs().size();
    diskProbes = Threads.boundedPool(name + "-disk-probe", dirs, dirs);
    diskChecker = Threads.scheduler(name + "-disk-checker");
    volumes.checkAll(diskProbes, config.diskCheckTimeout());
    Threads.everyPeriod(diskChecker, name + ": disk check", config.diskCheckInterval(),
        config.diskCheckInterval(), () -> volumes.checkAll(diskProbes, config.diskCheckTimeout()));
  }

  /** One Ratis server over the healthy RaftLog directories; without any, the node takes no pipelines. */
  private void startRatis() throws IOException {
    List<Path> logDirs = volumes.healthyRaftLogDirs();
    if (logDirs.isEmpty()) {
      LOG.error("{}: no healthy RaftLog directory: this datanode cannot join pipelines", name);
      return;
    }
    ratis = new RatisPipelines(name, id.uuid(), config.ipAddress(), config.ratisPort(), logDirs);
    ratis.start();
    pipelineCommands = new PipelineCommandHandler(name, ratis);
  }

  private NodeReport nodeReport() {
    return volumes.nodeReport(ratis == null ? Map.of() : ratis.groupsPerLogDir(ratis.reports()));
  }

  /** The Raft groups this datanode hosts, as its heartbeats report them. */
  public List<PipelineReport> pipelineReports() {
    return ratis == null ? List.of() : ratis.reports();
  }

  private void onCommand(ScmCommand command) {
    if (pipelineCommands == null) {
      LOG.warn("{}: cannot carry out {}: no Ratis server (no healthy RaftLog directory)", name,
          command.getCommandCase());
      return;
    }
    pipelineCommands.submit(command);
  }

  /** Records the cluster on first registration and binds the volumes to it. */
  private void registered(RegisterResponse response) throws ScmException {
    if (response.getClusterId().equals(id.clusterId())) {
      return;
    }
    if (!id.clusterId().isEmpty()) {
      throw new ScmException(ScmResult.CLUSTER_ID_MISMATCH, "SCM answered for cluster " + response.getClusterId()
          + " but this datanode belongs to " + id.clusterId());
    }
    try {
      id = id.withClusterId(response.getClusterId(), config.idDir());
    } catch (IOException e) {
      throw new ScmException(ScmResult.INTERNAL_ERROR, "cannot record the cluster id: " + e.getMessage());
    }
    volumes.format(id.uuid(), id.clusterId());
  }

  private DatanodeDetails details() {
    return DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id.uuid())).setHostName(config.hostName())
        .setIpAddress(config.ipAddress()).setVersion(VersionInfo.version())
        .addPorts(Port.newBuilder().setName(PortName.RATIS).setValue(ratis == null ? config.ratisPort() : ratis.port()))
        .addPorts(Port.newBuilder().setName(PortName.READ).setValue(config.readPort()))
        .addPorts(Port.newBuilder().setName(PortName.HTTP).setValue(config.httpPort())).build();
  }

  public DatanodeId id() {
    return id;
  }

  public VolumeSet volumes() {
    return volumes;
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    Closer.closeAll(name, heartbeat, pipelineCommands, ratis,
        diskChecker == null ? null : () -> Threads.shutdown(diskChecker, STOP_TIMEOUT),
        diskProbes == null ? null : () -> Threads.shutdown(diskProbes, STOP_TIMEOUT));
    lifeCycle.closeEnds();
    LOG.info("{}: datanode stopped", name);
  }
}
