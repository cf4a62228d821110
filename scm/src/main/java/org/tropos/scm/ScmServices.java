package org.tropos.scm;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.audit.AuditLog;
import org.tropos.common.net.LocalHosts;
import org.tropos.common.net.RackResolver;
import org.tropos.common.rpc.GrpcServer;
import org.tropos.common.rpc.ShedUnderPressure;
import org.tropos.common.security.Administration;
import org.tropos.common.security.SealingKey;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Closer;
import org.tropos.common.util.HeapPressure;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.common.util.VersionInfo;
import org.tropos.proto.scm.ScmBlockServiceGrpc;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.block.BlockDeletingService;
import org.tropos.scm.block.DeletedBlockLog;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.db.ScmIdentity;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.DatanodeAdmin;
import org.tropos.scm.node.HeardDatanodes;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.pipeline.PipelineRenewer;
import org.tropos.scm.replication.ExtraReplicationRounds;
import org.tropos.scm.replication.ReplicationManager;
import org.tropos.scm.rpc.ScmAdminRpc;
import org.tropos.scm.rpc.ScmAdministrators;
import org.tropos.scm.rpc.ScmAdmissions;
import org.tropos.scm.rpc.ScmBlockRpc;
import org.tropos.scm.rpc.ScmDatanodeRpc;
import org.tropos.scm.rpc.ScmSecurityRpc;
import org.tropos.scm.security.ScmCertificateAuthority;
import org.tropos.scm.security.ScmSealingKey;
import org.tropos.scm.security.ScmSecretKeys;

/**
 * What an SCM runs while it serves: the node, pipeline and container managers loaded from the database (and, for
 * an HA service, the datanodes it heard while it followed), their background rounds (pipeline creation,
 * replication, block deletion), the client and block gRPC services, and what the datanode service answers
 * from. A single SCM runs them for its whole life; an SCM of an HA service only while it leads (ScmServer), so
 * that exactly one SCM decides, and a new leader starts them afresh from the database its Raft group kept.
 */
final class ScmServices implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScmServices.class);
  private static final int HANDLER_THREADS = 8;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
  /** How long a pipeline being replaced waits for its containers to close through Raft before it is closed. */
  private static final Duration PIPELINE_DRAIN_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration CONTAINER_CLOSE_ROUND = Duration.ofSeconds(10);

  private final ScmConfig config;
  private final RackResolver racks;
  /** SCM's audit log: the calls of OMs, administrators and users; datanodes' heartbeats are not logged. */
  private static final AuditLog AUDIT = AuditLog.of("scm");
  private final Clock clock;
  private final ScmDb db;
  private final LifeCycle lifeCycle = new LifeCycle("SCM services");
  private ScmIdentity identity;
  private NodeManager nodeManager;
  private PipelineManager pipelineManager;
  private ScheduledExecutorService scheduler;
  private ScheduledExecutorService pipelineScheduler;
  private ScheduledExecutorService deletionScheduler;
  private ScheduledExecutorService replicationScheduler;
  private ScheduledExecutorService keyScheduler;
  private ReplicationManager replicationManager;
  private ScmDatanodeRpc.Serving datanodeServing;
  private GrpcServer clientServer;
  private GrpcServer blockServer;
  private ContainerManager containerManager;
  private DeletedBlockLog deletedBlocks;
  private BlockDeletingService blockDeleting;
  private ScmMetrics metrics;
  private final HeardDatanodes heard;
  private final MeterRegistry registry;
  private final Administration administration;
  private final TransportSecurity transport;

  /** @param heard what this SCM heard from the datanodes before it served (HA); null for a single SCM */
  ScmServices(ScmConfig config, RackResolver racks, Clock clock, ScmDb db, HeardDatanodes heard,
      MeterRegistry registry, TransportSecurity transport, Administration administration) {
    this.administration = administration;
    this.registry = registry;
    this.transport = transport;
    this.config = config;
    this.racks = racks;
    this.clock = clock;
    this.db = db;
    this.heard = heard;
  }

  void start() throws IOException {
    lifeCycle.startBegins();
    try {
      identity = ScmIdentity.loadOrCreate(db);
      ScmCertificateAuthority ca = ScmCertificateAuthority.loadOrCreate(db, config.security().dir(),
          config.security().x509(), config.security().suppliedCa(), identity.clusterId(), clock);
      Optional<ScmSecretKeys> secretKeys = startSecretKeys();
      CommandQueue commands = new CommandQueue();
      nodeManager = new NodeManager(db, racks, clock, config.staleNodeInterval(), config.deadNodeInterval(),
          identity.clusterId(), commands);
      nodeManager.load();
      pipelineScheduler = Threads.scheduler("scm-pipeline-manager");
      pipelineManager = new PipelineManager(db, nodeManager, commands, config.pipelineLimits(),
          config.singleReplicaPipelines(), clock, config.heartbeatInterval(), pipelineScheduler);
      pipelineManager.load();
      nodeManager.listen(pipelineManager);
      containerManager = new ContainerManager(db, pipelineManager, nodeManager, commands, racks,
          config.containerSize(), config.blockSize());
      containerManager.load();
      nodeManager.listen(containerManager);
      pipelineManager.onClosed(containerManager::pipelineClosed);
      if (heard != null) {
        // Before any round runs: the replication manager must see the replicas the datanodes report.
        heard.handTo(nodeManager, config.staleNodeInterval());
      }
      scheduler = Threads.scheduler("scm-node-checker");
      Threads.everyPeriod(scheduler, "Datanode state check", config.nodeCheckInterval(),
          config.nodeCheckInterval(), nodeManager::checkNodes);
      PipelineRenewer renewer = new PipelineRenewer(pipelineManager, containerManager, clock,
          PIPELINE_DRAIN_TIMEOUT);
      Threads.everyPeriod(pipelineScheduler, "Pipeline fill and leader balancing", config.pipelineCreationInterval(),
          config.pipelineCreationInterval(), () -> {
            pipelineManager.fillToLimits();
            renewer.run();
            pipelineManager.balanceLeaders();
          });
      // Full containers are closed within seconds, not at the next pipeline round (two minutes by default): until
      // then they are neither copied nor scrubbed.
      Duration closeRound = config.pipelineCreationInterval().compareTo(CONTAINER_CLOSE_ROUND) < 0
          ? config.pipelineCreationInterval() : CONTAINER_CLOSE_ROUND;
      Threads.everyPeriod(pipelineScheduler, "Closing full containers", closeRound, closeRound,
          containerManager::closeFullContainers);
      startBlockDeletion(commands);
      replicationManager = new ReplicationManager(containerManager, nodeManager, commands, clock,
          config.replication());
      replicationScheduler = Threads.scheduler("scm-replication-manager");
      Threads.everyPeriod(replicationScheduler, "Replication", config.replication().interval(),
          config.replication().interval(), replicationManager::run);
      containerManager.onClosed(new ExtraReplicationRounds(replicationScheduler, replicationManager::run, clock));
      datanodeServing = new ScmDatanodeRpc.Serving(nodeManager, identity, blockDeleting);
      startClientServer(ca, secretKeys);
      blockServer = new GrpcServer("scm-block-rpc", config.blockBind(), HANDLER_THREADS,
          List.of(new ScmBlockRpc(containerManager, deletedBlocks)), registry)
          .admitting(new ShedUnderPressure(registry, HeapPressure.jvm(), ScmResult.SCM_BUSY, Set.of(
              ScmBlockServiceGrpc.getAllocateBlockMethod().getFullMethodName(),
              ScmBlockServiceGrpc.getAllocateBlocksMethod().getFullMethodName())))
          .secured(transport, ScmAdmissions.blockPort(identity.clusterId()))
          .auditing(AUDIT, method -> true, ScmResult::forNumber);
      blockServer.start();
      metrics = new ScmMetrics(registry, nodeManager, pipelineManager, containerManager, replicationManager);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    lifeCycle.startEnds();
    LOG.info("SCM {} of cluster {} serves (version {}): client service on port {}, block service on port {},"
        + " database {}", identity.scmId(), identity.clusterId(), VersionInfo.version(), clientPort(), blockPort(),
        config.dbDir());
  }

  /** Administration and certificates; users proven by Kerberos too when SCM has a principal. */
  private void startClientServer(ScmCertificateAuthority ca, Optional<ScmSecretKeys> secretKeys) throws IOException {
    clientServer = new GrpcServer("scm-client-rpc", config.clientBind(), HANDLER_THREADS,
        List.of(new ScmAdminRpc(nodeManager, pipelineManager, identity, new DatanodeAdmin(nodeManager, clock),
            containerManager, replicationManager, new ScmAdministrators(config.security().enabled(),
                administration)),
            new ScmSecurityRpc(ca, secretKeys, sealingKey())), registry)
        .secured(transport, ScmAdmissions.clientPort(identity.clusterId()))
        .auditing(AUDIT, method -> true, ScmResult::forNumber);
    if (config.security().enabled() && config.kerberos().isPresent()) {
      clientServer.authenticatingUsers(config.kerberos().get().acceptor(LocalHosts.name()));
    }
    clientServer.start();
  }

  /** The key the OMs seal S3 secrets with, made with the cluster; none when it is not secure. */
  private Optional<SealingKey> sealingKey() throws IOException {
    return config.security().enabled() ? Optional.of(ScmSealingKey.loadOrCreate(db)) : Optional.empty();
  }

  /**
   * In a secure cluster, the block-token keys: a new one made now if due, and checked again every period on the
   * node checker's scheduler.
   */
  private Optional<ScmSecretKeys> startSecretKeys() throws IOException {
    if (!config.security().enabled()) {
      return Optional.empty();
    }
    ScmSecretKeys keys = new ScmSecretKeys(db, config.security().blockTokens(), clock);
    keys.rotateIfDue();
    keyScheduler = Threads.scheduler("scm-secret-keys");
    Duration every = config.security().blockTokens().checkEvery();
    Threads.everyPeriod(keyScheduler, "Block-token key rotation", every, every, () -> {
      try {
        keys.rotateIfDue();
      } catch (IOException e) {
        LOG.warn("Cannot make a new block-token key (trying again in {}): {}", every, e.getMessage());
      }
    });
    return Optional.of(keys);
  }

  /**
   * A replication round between the periodic ones, a second after it is asked for: the rounds asked for meanwhile
   * (a stream of closing containers in a busy cluster) share it.
   */
  /** The deleted-block log and the component that sends it to the datanodes, on a scheduler of its own. */
  private void startBlockDeletion(CommandQueue commands) throws IOException {
    deletedBlocks = new DeletedBlockLog(db);
    deletedBlocks.load();
    blockDeleting = new BlockDeletingService(deletedBlocks, containerManager::replicaHolders,
        containerManager::deletionsDone, nodeManager, commands, clock, config.blockDeletion());
    deletionScheduler = Threads.scheduler("scm-block-deleting");
    Threads.everyPeriod(deletionScheduler, "Block deletion", config.blockDeletion().interval(),
        config.blockDeletion().interval(), blockDeleting::run);
  }

  /** What the datanode service answers from while this SCM serves. */
  ScmDatanodeRpc.Serving datanodeServing() {
    return datanodeServing;
  }

  int clientPort() {
    return clientServer.port();
  }

  int blockPort() {
    return blockServer.port();
  }

  ContainerManager containerManager() {
    return containerManager;
  }

  ReplicationManager replicationManager() {
    return replicationManager;
  }

  DeletedBlockLog deletedBlockLog() {
    return deletedBlocks;
  }

  ScmIdentity identity() {
    return identity;
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    Closer.closeAll("SCM services", metrics, blockServer, clientServer,
        scheduler == null ? null : () -> Threads.shutdown(scheduler, STOP_TIMEOUT),
        keyScheduler == null ? null : () -> Threads.shutdown(keyScheduler, STOP_TIMEOUT),
        deletionScheduler == null ? null : () -> Threads.shutdown(deletionScheduler, STOP_TIMEOUT),
        replicationScheduler == null ? null : () -> Threads.shutdown(replicationScheduler, STOP_TIMEOUT),
        pipelineScheduler == null ? null : () -> Threads.shutdown(pipelineScheduler, STOP_TIMEOUT));
    lifeCycle.closeEnds();
    LOG.info("SCM services stopped");
  }
}
