package org.tropos.datanode.ratis;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Threads;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.container.EcReplicas;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.ScmCommand;

/**
 * Carries out SCM's pipeline commands on one thread of its own, so the heartbeat never waits on Ratis. Commands
 * are idempotent; one that fails is logged and SCM sends it again while the cluster still needs it. SCM repeats a
 * command at each round until it is done, so one already waiting is not queued again, and a container already
 * closed here is not closed again through Raft. The queue holds at most {@value #QUEUE_LIMIT} commands; past that
 * a command is dropped (SCM repeats it), with one warning when the queue fills and one when it takes commands
 * again.
 */
public final class PipelineCommandHandler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineCommandHandler.class);
  private static final int QUEUE_LIMIT = 1000;

  private final String nodeName;
  private final RatisPipelines pipelines;
  private final ContainerStore store;
  private final EcReplicas ecReplicas;
  private final ExecutorService executor;
  private final Set<ScmCommand> waiting = ConcurrentHashMap.newKeySet();
  /** Commands dropped since the queue last filled; guarded by this object's monitor. */
  private long dropped;

  public PipelineCommandHandler(String nodeName, RatisPipelines pipelines, ContainerStore store) {
    this.nodeName = nodeName;
    this.pipelines = pipelines;
    this.store = store;
    this.ecReplicas = new EcReplicas(store);
    this.executor = Threads.boundedPool(nodeName + "-pipeline-commands", 1, QUEUE_LIMIT);
  }

  /** Queues a command; returns at once. */
  public void submit(ScmCommand command) {
    if (!waiting.add(command)) {
      return;
    }
    try {
      executor.execute(() -> run(command));
      countAccepted();
    } catch (RejectedExecutionException e) {
      waiting.remove(command);
      countDropped(command);
    }
  }

  private synchronized void countDropped(ScmCommand command) {
    if (dropped++ == 0) {
      LOG.warn("{}: {} pipeline commands are queued; dropping new ones (SCM sends them again), first {}", nodeName,
          QUEUE_LIMIT, command.getCommandCase());
    }
  }

  private synchronized void countAccepted() {
    if (dropped > 0) {
      LOG.warn("{}: the pipeline command queue takes commands again; {} were dropped", nodeName, dropped);
      dropped = 0;
    }
  }

  private void run(ScmCommand command) {
    try {
      execute(command);
    } finally {
      waiting.remove(command);
    }
  }

  private void execute(ScmCommand command) {
    try {
      switch (command.getCommandCase()) {
        case CREATE_PIPELINE:
          pipelines.join(command.getCreatePipeline().getPipelineId(), command.getCreatePipeline().getMembersList(),
              Uuids.fromProto(command.getCreatePipeline().getSuggestedLeader()));
          break;
        case CLOSE_PIPELINE:
          pipelines.leave(command.getClosePipeline().getPipelineId());
          break;
        case TRANSFER_LEADERSHIP:
          pipelines.transferLeadership(command.getTransferLeadership().getPipelineId(),
              Uuids.fromProto(command.getTransferLeadership().getNewLeader()));
          break;
        case CLOSE_CONTAINER:
          closeContainer(command.getCloseContainer());
          break;
        default:
          LOG.warn("{}: ignoring an unknown SCM command {}", nodeName, command.getCommandCase());
      }
    } catch (IOException | DatanodeException | RuntimeException e) {
      LOG.warn("{}: SCM command {} failed (SCM will send it again if still needed): {}", nodeName,
          command.getCommandCase(), e.toString());
    }
  }

  /**
   * Through the Raft group (only its leader can), or locally when the pipeline is gone: as QUASI_CLOSED, or
   * (forced) from QUASI_CLOSED to CLOSED. An erasure-coded replica has no Raft group: closed here, made empty and
   * closed if this member holds none.
   */
  private void closeContainer(CloseContainerCommand close) throws IOException, DatanodeException {
    if (ecReplicas.holdsEc(close.getContainerId())) {
      ecReplicas.close(close.getContainerId());
    } else if (close.hasEc()) {
      ecReplicas.closeEmpty(close.getContainerId(), close.getEc(), close.getReplicaIndex());
    } else if (close.getForce()) {
      store.forceClose(close.getContainerId());
    } else if (close.getQuasi()) {
      pipelines.quasiClose(close.getContainerId());
    } else if (store.state(close.getContainerId()) != ContainerState.CONTAINER_CLOSED) {
      pipelines.closeContainer(close.getPipelineId(), close.getContainerId());
    }
  }

  @Override
  public void close() {
    Threads.shutdown(executor, Duration.ofSeconds(15));
  }
}
