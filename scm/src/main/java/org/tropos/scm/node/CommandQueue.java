package org.tropos.scm.node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.proto.scm.ScmCommand;

/**
 * Commands waiting for a datanode's next heartbeat. A command already waiting is not queued twice: SCM repeats
 * commands each round until the cluster has done them (a thousand closing containers were otherwise queued again
 * every half second). At most {@value #LIMIT_PER_NODE} wait per node: past that the oldest is dropped (every
 * command is idempotent and SCM sends again what the cluster still needs), and the drops are counted in one
 * warning when the node next takes its commands.
 *
 * <p>Thread-safety: guarded by its own lock; taken after, never before, the pipeline manager's.
 */
public final class CommandQueue {
  private static final Logger LOG = LoggerFactory.getLogger(CommandQueue.class);
  private static final int LIMIT_PER_NODE = 1000;

  /** One node's waiting commands, oldest first, and how many were dropped since it last took them. */
  private static final class Waiting {
    final LinkedHashSet<ScmCommand> commands = new LinkedHashSet<>();
    long dropped;
  }

  private final Map<UUID, Waiting> queues = new HashMap<>();

  public synchronized void add(UUID datanode, ScmCommand command) {
    Waiting waiting = queues.computeIfAbsent(datanode, id -> new Waiting());
    if (waiting.commands.contains(command)) {
      return;
    }
    if (waiting.commands.size() == LIMIT_PER_NODE) {
      Iterator<ScmCommand> oldest = waiting.commands.iterator();
      oldest.next();
      oldest.remove();
      waiting.dropped++;
    }
    waiting.commands.add(command);
  }

  /** Takes every command waiting for {@code datanode}, oldest first. */
  public synchronized List<ScmCommand> drain(UUID datanode) {
    Waiting waiting = queues.remove(datanode);
    if (waiting == null) {
      return List.of();
    }
    if (waiting.dropped > 0) {
      LOG.warn("Datanode {} had {} commands waiting; dropped the {} oldest (SCM sends again what is still needed)",
          datanode, LIMIT_PER_NODE, waiting.dropped);
    }
    return new ArrayList<>(waiting.commands);
  }
}
