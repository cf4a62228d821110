package org.tropos.client.internal.ratis;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.ClientKeys;
import org.tropos.common.conf.Configuration;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.ByteBudget;
import org.tropos.common.util.Uuids;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;

/**
 * What every writer of a process shares: one Ratis client per pipeline (a Ratis client holds gRPC channels, too
 * costly to build per object), and the budget for the bytes the writers hold until committed. A writer that finds
 * a pipeline broken invalidates its client.
 *
 * <p>Thread-safety: a concurrent map; the clients themselves are thread-safe.
 */
public final class PipelineClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineClients.class);

  private final Map<UUID, PipelineClient> clients = new ConcurrentHashMap<>();
  private final Duration writeTimeout;
  private final Duration watchTimeout;
  private final ByteBudget buffers;
  private final TransportSecurity transport;

  /**
   * With the timeouts {@code conf} sets (hdds.ratis.client.request.write.timeout and .watch.timeout) and its write
   * buffer budget (ozone.client.write.buffer.budget), reaching datanodes as {@code transport} says.
   */
  public PipelineClients(Configuration conf, TransportSecurity transport) {
    this.transport = transport;
    this.writeTimeout = conf.get(ClientKeys.RATIS_WRITE_TIMEOUT);
    this.watchTimeout = conf.get(ClientKeys.RATIS_WATCH_TIMEOUT);
    long budget = conf.get(ClientKeys.WRITE_BUFFER_BUDGET).bytes();
    this.buffers = new ByteBudget(budget > 0 ? budget : Runtime.getRuntime().maxMemory() / 4);
  }

  /** The bytes this process's writers may hold until committed. */
  public ByteBudget buffers() {
    return buffers;
  }

  public PipelineClient get(PipelineInfo pipeline) {
    return clients.computeIfAbsent(Uuids.fromProto(pipeline.getId().getId()), id -> new PipelineClient(id,
        pipeline.getMembersList().stream().map(PipelineMember::getDatanode).toList(),
        pipeline.hasLeader() ? Uuids.fromProto(pipeline.getLeader()) : null, writeTimeout, watchTimeout, transport));
  }

  /** Drops (and closes) the client of a pipeline found gone, unless another writer already replaced it. */
  public void invalidate(PipelineClient client) {
    if (clients.remove(client.pipeline(), client)) {
      closeQuietly(client);
    }
  }

  private static void closeQuietly(PipelineClient client) {
    try {
      client.close();
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing the client of pipeline {}: {}", client.pipeline(), e.toString());
    }
  }

  @Override
  public void close() {
    clients.values().forEach(PipelineClients::closeQuietly);
    clients.clear();
  }
}
