package org.tropos.scm.node;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.proto.scm.ScmCommand;

/**
 * Commands waiting for a datanode's next heartbeat. At most {@value #LIMIT_PER_NODE} per node: past that the
 * oldest is dropped with a warning (every command is idempotent and SCM re-sends what the cluster still needs).
 *
 * <p>Thread-safety: guarded by its own lock; taken after, never before, the pipeline manager's.
 */
public final class CommandQueue {
  private static final Logger LOG = LoggerFactory.getLogger(CommandQueue.class);
  private static final int LIMIT_PER_NODE = 1000;

  private final Map<UUID, ArrayDeque<ScmCommand>> queues = new HashMap<>();

  public synchronized void add(UUID datanode, ScmCommand command) {
    ArrayDeque<ScmCommand> queue = queues.computeIfAbsent(datanode, id -> new ArrayDeque<>());
    if (queue.size() == LIMIT_PER_NODE) {
      LOG.warn("Datanode {} has {} commands waiting; dropping the oldest ({})", datanode, LIMIT_PER_NODE,
          queue.poll().getCommandCase());
    }
    queue.add(command);
  }

  /** Takes every command waiting for {@code datanode}, oldest first. */
  public synchronized List<ScmCommand> drain(UUID datanode) {
    ArrayDeque<ScmCommand> queue = queues.remove(datanode);
    return queue == null ? List.of() : new ArrayList<>(queue);
  }
}
