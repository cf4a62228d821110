package org.tropos.datanode.container;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.DeleteContainerCommand;
import org.tropos.proto.scm.ReconstructEcContainerCommand;
import org.tropos.proto.scm.ReplicateContainerCommand;

/**
 * Carries out SCM's replication commands: copies of closed containers on up to {@code streams} threads (a copy is
 * disk- and network-bound, so a few run at once), and deletions of replicas on a thread of their own so a long
 * copy never holds one up. A command whose deadline has passed is dropped, when it arrives and again when its turn
 * comes: SCM has given up on it and may have asked another node. A copy of a container already being copied here
 * is not started twice. Failures are logged; SCM sees the replica missing and asks again.
 */
public final class ReplicationCommandHandler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationCommandHandler.class);
  private static final int QUEUE_LIMIT = 1000;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

  private final String nodeName;
  private final ContainerStore store;
  private final ContainerImporter importer;
  private final EcReconstructor reconstructor;
  private final Clock clock;
  private final ExecutorService copies;
  private final ExecutorService deletions;
  private final Set<Long> copying = ConcurrentHashMap.newKeySet();

  public ReplicationCommandHandler(String nodeName, ContainerStore store, ContainerImporter importer,
      EcReconstructor reconstructor, int streams, Clock clock) {
    this.nodeName = nodeName;
    this.store = store;
    this.importer = importer;
    this.reconstructor = reconstructor;
    this.clock = clock;
    this.copies = Threads.boundedPool(nodeName + "-container-copy", streams, QUEUE_LIMIT);
    this.deletions = Threads.boundedPool(nodeName + "-container-delete", 1, QUEUE_LIMIT);
  }

  /**
   * Queues a copy; returns at once.
   *
   * @return false if it was dropped (past its deadline, the container is being copied already, the queue is full)
   */
  public boolean replicate(ReplicateContainerCommand command) {
    return enqueue(command.getContainerId(), command.getDeadlineEpochMs(), "copy", () -> importer.copy(
        command.getContainerId(), command.getSourcesList().stream().map(s -> DatanodeAddresses.of(s, PortName.READ))
            .toList()));
  }

  /**
   * Queues the rebuild of a lost index of an erasure-coded container here, on the copies' threads (it reads as much
   * as a copy, and more); returns at once.
   *
   * @return false if it was dropped (as {@link #replicate})
   */
  public boolean reconstruct(ReconstructEcContainerCommand command) {
    return enqueue(command.getContainerId(), command.getDeadlineEpochMs(), "rebuild", () -> {
      Map<Integer, HostPort> sources = new LinkedHashMap<>();
      for (int i = 0; i < command.getSourcesCount() && i < command.getSourceIndexesCount(); i++) {
        sources.put(command.getSourceIndexes(i), DatanodeAddresses.of(command.getSources(i), PortName.READ));
      }
      reconstructor.reconstruct(command.getContainerId(), EcReplication.fromProto(command.getEc()),
          command.getIndex(), sources);
    });
  }

  /** Work that brings a container here, one at a time per container, on the copies' threads. */
  @FunctionalInterface
  private interface Arrival {
    void run() throws DatanodeException;
  }

  private boolean enqueue(long id, long deadlineEpochMs, String what, Arrival work) {
    if (expired(deadlineEpochMs, what, id) || !copying.add(id)) {
      return false;
    }
    try {
      copies.execute(() -> {
        try {
          if (!expired(deadlineEpochMs, what, id)) {
            work.run();
          }
        } catch (DatanodeException | RuntimeException e) {
          LOG.warn("{}: could not {} container {} (SCM asks again): {}", nodeName, what, id, e.getMessage());
        } finally {
          copying.remove(id);
        }
      });
      return true;
    } catch (RejectedExecutionException e) {
      copying.remove(id);
      LOG.warn("{}: {} container copies are queued; dropped the {} of {} (SCM asks again)", nodeName,
          QUEUE_LIMIT, what, id);
      return false;
    }
  }

  /**
   * Queues a deletion; returns at once.
   *
   * @return false if it was dropped (past its deadline, the queue is full)
   */
  public boolean delete(DeleteContainerCommand command) {
    long id = command.getContainerId();
    if (expired(command.getDeadlineEpochMs(), "deletion", id)) {
      return false;
    }
    try {
      deletions.execute(() -> {
        try {
          if (!expired(command.getDeadlineEpochMs(), "deletion", id) && !copying.contains(id)) {
            store.deleteContainer(id);
          }
        } catch (DatanodeException | RuntimeException e) {
          LOG.warn("{}: could not delete container {}: {}", nodeName, id, e.getMessage());
        }
      });
      return true;
    } catch (RejectedExecutionException e) {
      LOG.warn("{}: {} container deletions are queued; dropped the deletion of {}", nodeName, QUEUE_LIMIT, id);
      return false;
    }
  }

  private boolean expired(long deadlineEpochMs, String what, long id) {
    if (deadlineEpochMs > 0 && clock.wallTime().toEpochMilli() > deadlineEpochMs) {
      LOG.info("{}: dropped the {} of container {}: its deadline passed", nodeName, what, id);
      return true;
    }
    return false;
  }

  /** Queued copies are dropped and running ones interrupted (their staging copies are removed). */
  @Override
  public void close() {
    copies.shutdownNow();
    Threads.shutdown(copies, STOP_TIMEOUT);
    Threads.shutdown(deletions, STOP_TIMEOUT);
  }
}
