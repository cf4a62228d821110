package org.tropos.datanode;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.http.StatusServer;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.rpc.ScmSecretKeyClient;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateRenewal;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Closer;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.common.util.Uuids;
import org.tropos.common.util.VersionInfo;
import org.tropos.datanode.container.BlockDeletionHandler;
import org.tropos.datanode.container.ContainerImporter;
import org.tropos.datanode.container.ContainerScrubber;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.EcReconstructor;
import org.tropos.datanode.container.DirectIo;
import org.tropos.datanode.container.ReplicationCommandHandler;
import org.tropos.datanode.container.VolumeMeters;
import org.tropos.datanode.ratis.PipelineCommandHandler;
import org.tropos.datanode.ratis.RatisPipelines;
import org.tropos.datanode.read.BlockReadServer;
import org.tropos.datanode.read.BlockTransfer;
import org.tropos.datanode.read.ContainerReads;
import org.tropos.datanode.scm.HeartbeatReports;
import org.tropos.datanode.scm.ScmHeartbeat;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.datanode.security.ReadPortTls;
import org.tropos.datanode.volume.StorageDirectory;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmResult;

/**
 * The datanode process: builds its components, starts them, stops them in reverse order. It holds no logic of
 * its own and is never handed to a component. The data path (container store, read server, Ratis server) needs
 * the cluster id for its directory layout, so a datanode that has never registered starts it right after its
 * first registration; the heartbeat then registers again with the ports it bound.
 */
public final class DatanodeServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeServer.class);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private final DatanodeConfig config;
  private final CertificateIssuer issuer;
  private final String name;
  private final LifeCycle lifeCycle;
  private volatile DatanodeId id;
  private VolumeSet volumes;
  private ExecutorService diskProbes;
  private ScheduledExecutorService diskChecker;
  private volatile ContainerStore store;
  private volatile BlockDeletionHandler deletions;
  private volatile ReplicationCommandHandler replication;
  private volatile ContainerScrubber scrubber;
  private volatile BlockReadServer readServer;
  private volatile RatisPipelines ratis;
  private volatile PipelineCommandHandler pipelineCommands;
  private volatile ScmHeartbeat heartbeat;
  private final DaemonMetrics metrics = new DaemonMetrics();
  private StatusServer http;
  private CertificateRenewal renewal;
  /** TLS of this datanode's connections (plaintext without security), its certificate once it has one. */
  private volatile TransportSecurity transport = TransportSecurity.plaintext();
  /** Who may read and write blocks here (block tokens, checked with the keys fetched from SCM). */
  private volatile BlockAccess access = BlockAccess.OPEN;
  private AutoCloseable secretKeys;
  /** Set under this object's monitor by close(): a data-path start that comes later does nothing. */
  private boolean closing;

  /** A datanode that, in a secure cluster, must have its certificate already (or fails to start saying so). */
  public DatanodeServer(DatanodeConfig config) {
    this(config, CertificateIssuer.none("the datanode has no certificate in " + config.security().dir()
        + ": start it once with a bootstrap token (tropos admin cert token --role datanode)"));
  }

  /** @param issuer where the datanode gets its first certificate in a secure cluster */
  public DatanodeServer(DatanodeConfig config, CertificateIssuer issuer) {
    this.config = config;
    this.issuer = issuer;
    this.name = "dn-" + config.hostName();
    this.lifeCycle = new LifeCycle(name);
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    try {
      id = DatanodeId.loadOrCreate(config.idDir());
      transport = config.security().transport(ServiceRole.DATANODE, config.hostName(), issuer);
      renewal = ScmCertificateClient.renewal(name, config.security().scm(), transport, SystemClock.INSTANCE)
          .orElse(null);
      access = new BlockAccess(ScmSecretKeyClient.blockTokens(name, config.security(), transport,
          SystemClock.INSTANCE, keys -> secretKeys = keys), "datanode " + id.uuid());
      http = StatusServer.of(name + "-http", config.status(), transport, metrics, this::whyNotReady);
      http.start();
      volumes = new VolumeSet(name, config.dataDirs(), config.raftLogDirs(), config.volumeReservedBytes());
      volumes.createDirectories();
      startDiskChecks();
      if (!id.clusterId().isEmpty()) {
        volumes.format(id.uuid(), id.clusterId());
        startDataPath();
      }
      heartbeat = new ScmHeartbeat(name, config.scms(), transport, config.heartbeatInterval(), this::details,
          new HeartbeatReports(this::nodeReport, this::pipelineReports, this::containerReports, this::deletionAcks),
          this::registered, this::onCommand);
      heartbeat.start();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    lifeCycle.startEnds();
    LOG.info("{}: datanode {} started (version {}): {} data volumes, {} RaftLog directories, SCM at {}", name,
        id.uuid(), VersionInfo.version(), config.dataDirs().size(), config.raftLogDirs().size(), config.scms());
  }

  private void startDiskChecks() {
    int dirs = config.dataDirs().size() + config.raftLogDirs().size();
    diskProbes = Threads.boundedPool(name + "-disk-probe", dirs, dirs);
    diskChecker = Threads.scheduler(name + "-disk-checker");
    volumes.checkAll(diskProbes, config.diskCheckTimeout());
    Threads.everyPeriod(diskChecker, name + ": disk check", config.diskCheckInterval(),
        config.diskCheckInterval(), () -> volumes.checkAll(diskProbes, config.diskCheckTimeout()));
  }

  /** Container store, zero-copy read server and the Ratis server with its pipelines; once, with a cluster id. */
  private synchronized void startDataPath() throws IOException {
    if (store != null || closing) {
      return;
    }
    DirectIo directIo = new DirectIo(config.directIoThreshold());
    VolumeMeters volumeMeters = new VolumeMeters(metrics.registry(),
        volumes.dataVolumes().stream().map(StorageDirectory::path).toList());
    store = new ContainerStore(name, id.clusterId(), volumes.dataVolumes(), directIo, volumeMeters);
    store.open();
    store.onReplicasChanged(this::reportSoon);
    deletions = new BlockDeletionHandler(name, store);
    replication = new ReplicationCommandHandler(name, store,
        new ContainerImporter(name, store, config.replicationTimeout(), access, transport),
        new EcReconstructor(name, store, config.replicationTimeout(), access, transport), config.replicationStreams(),
        SystemClock.INSTANCE);
    scrubber = new ContainerScrubber(name, store, config.scrub(), SystemClock.INSTANCE, metrics.registry());
    scrubber.start();
    readServer = new BlockReadServer(name + "-read", new HostPort(config.ipAddress(), config.readPort()),
        new ContainerReads(store, volumeMeters), BlockTransfer.ZERO_COPY, directIo, access,
        ReadPortTls.of(transport));
    readServer.start();
    List<Path> logDirs = volumes.healthyRaftLogDirs();
    if (logDirs.isEmpty()) {
      LOG.error("{}: no healthy RaftLog directory: this datanode cannot join pipelines", name);
      return;
    }
    ratis = new RatisPipelines(name, id.uuid(), config.ipAddress(), config.ratisPort(), logDirs, store, transport,
        access, config.ratisSnapshotThreshold(), config.ratisProperties(), metrics.registry());
    ratis.start();
    pipelineCommands = new PipelineCommandHandler(name, ratis, store);
  }

  private void reportSoon() {
    ScmHeartbeat h = heartbeat;
    if (h != null) {
      h.beatSoon();
    }
  }

  /** Ready once registered with SCM, its data path started and able to join pipelines. */
  private Optional<String> whyNotReady() {
    if (store == null) {
      return Optional.of("not registered with SCM yet (SCM at " + config.scms() + ")");
    }
    if (ratis == null) {
      return Optional.of("no healthy RaftLog directory: it cannot join pipelines");
    }
    return Optional.empty();
  }

  private NodeReport nodeReport() {
    RatisPipelines r = ratis;
    ContainerStore s = store;
    return volumes.nodeReport(r == null ? Map.of() : r.groupsPerLogDir(r.reports()),
        s == null ? Map.of() : s.blockBytesPerVolume());
  }

  /** The Raft groups this datanode hosts, as its heartbeats report them. */
  public List<PipelineReport> pipelineReports() {
    RatisPipelines r = ratis;
    return r == null ? List.of() : r.reports();
  }

  private List<ContainerReport> containerReports() {
    ContainerStore s = store;
    return s == null ? List.of() : s.reports();
  }

  private List<DeleteBlocksAck> deletionAcks() {
    BlockDeletionHandler d = deletions;
    return d == null ? List.of() : d.takeAcks();
  }

  private void onCommand(ScmCommand command) {
    switch (command.getCommandCase()) {
      case DELETE_BLOCKS, REPLICATE_CONTAINER, RECONSTRUCT_EC_CONTAINER, DELETE_CONTAINER -> onStorageCommand(command);
      default -> onPipelineCommand(command);
    }
  }

  /** Commands on stored data, which need the container store but not the Ratis server. */
  private void onStorageCommand(ScmCommand command) {
    BlockDeletionHandler d = deletions;
    ReplicationCommandHandler r = replication;
    if (d == null || r == null) {
      LOG.warn("{}: cannot carry out {} before the data path starts (SCM sends it again)", name,
          command.getCommandCase());
    } else if (command.hasDeleteBlocks()) {
      d.submit(command.getDeleteBlocks());
    } else if (command.hasReplicateContainer()) {
      r.replicate(command.getReplicateContainer());
    } else if (command.hasReconstructEcContainer()) {
      r.reconstruct(command.getReconstructEcContainer());
    } else {
      r.delete(command.getDeleteContainer());
    }
  }

  private void onPipelineCommand(ScmCommand command) {
    PipelineCommandHandler handler = pipelineCommands;
    if (handler == null) {
      LOG.warn("{}: cannot carry out {}: no Ratis server (no healthy RaftLog directory)", name,
          command.getCommandCase());
      return;
    }
    handler.submit(command);
  }

  /** Records the cluster on first registration, binds the volumes to it and starts the data path. */
  private void registered(RegisterResponse response) throws ScmException {
    if (!response.getClusterId().equals(id.clusterId())) {
      if (!id.clusterId().isEmpty()) {
        throw new ScmException(ScmResult.CLUSTER_ID_MISMATCH, "SCM answered for cluster "
            + response.getClusterId() + " but this datanode belongs to " + id.clusterId());
      }
      try {
        id = id.withClusterId(response.getClusterId(), config.idDir());
      } catch (IOException e) {
        throw new ScmException(ScmResult.INTERNAL_ERROR, "cannot record the cluster id: " + e.getMessage());
      }
      volumes.format(id.uuid(), id.clusterId());
    }
    try {
      startDataPath();
    } catch (IOException e) {
      throw new ScmException(ScmResult.INTERNAL_ERROR, "cannot start the data path: " + e.getMessage());
    }
  }

  private DatanodeDetails details() {
    RatisPipelines r = ratis;
    BlockReadServer read = readServer;
    return DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id.uuid())).setHostName(config.hostName())
        .setIpAddress(config.ipAddress()).setVersion(VersionInfo.version())
        .addPorts(port(PortName.RATIS, r == null ? config.ratisPort() : r.port()))
        .addPorts(port(PortName.READ, read == null ? config.readPort() : read.port()))
        .addPorts(port(PortName.HTTP, http.port())).build();
  }

  private static Port port(PortName name, int value) {
    return Port.newBuilder().setName(name).setValue(value).build();
  }

  /** The status port (/prom, /health, /ready). */
  public int httpPort() {
    return http.port();
  }

  public DatanodeId id() {
    return id;
  }

  /** The container store, or null before the datanode knows its cluster. */
  public ContainerStore store() {
    return store;
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    // The heartbeat first: its registration may be starting the data path, which must finish (or not begin)
    // before the data path's components are read and closed below.
    Closer.closeAll(name, heartbeat, renewal);
    synchronized (this) {
      closing = true;
    }
    Closer.closeAll(name, pipelineCommands, ratis, replication, scrubber, readServer, deletions, store,
        diskChecker == null ? null : () -> Threads.shutdown(diskChecker, STOP_TIMEOUT),
        diskProbes == null ? null : () -> Threads.shutdown(diskProbes, STOP_TIMEOUT), secretKeys, http, metrics);
    lifeCycle.closeEnds();
    LOG.info("{}: datanode stopped", name);
  }
}
