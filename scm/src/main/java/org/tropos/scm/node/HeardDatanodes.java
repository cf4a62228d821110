package org.tropos.scm.node;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.RegisterRequest;

/**
 * The last registration and heartbeat each datanode sent this SCM, whether it led or followed. Every SCM of an HA
 * service hears every datanode, so the one that takes over hands what it heard to its fresh {@link NodeManager}
 * ({@link #handTo}) and starts knowing which nodes are alive, the pipelines they run and the replicas they hold,
 * instead of waiting for each to register again.
 *
 * <p>Thread-safety: safe for the RPC handler threads that record and the thread that starts serving.
 */
public final class HeardDatanodes {
  private static final Logger LOG = LoggerFactory.getLogger(HeardDatanodes.class);

  /** One datanode as last heard: its registration and, once one came after it, its last heartbeat. */
  private record Heard(RegisterRequest registration, Optional<HeartbeatRequest> heartbeat, long atMillis) {
  }

  private final Map<UUID, Heard> heard = new ConcurrentHashMap<>();
  private final Clock clock;

  public HeardDatanodes(Clock clock) {
    this.clock = clock;
  }

  public void registered(RegisterRequest registration) {
    heard.put(Uuids.fromProto(registration.getDatanode().getUuid()),
        new Heard(registration, Optional.empty(), clock.monotonicMillis()));
  }

  /** Records a heartbeat; false if the node has not registered with this SCM (it must, before it is heard). */
  public boolean heartbeat(HeartbeatRequest heartbeat) {
    return heard.computeIfPresent(Uuids.fromProto(heartbeat.getDatanodeUuid()),
        (id, was) -> new Heard(was.registration(), Optional.of(heartbeat), clock.monotonicMillis())) != null;
  }

  /** How many datanodes have registered with this SCM since it started. */
  public int size() {
    return heard.size();
  }

  /**
   * Registers with {@code nodes} every datanode heard within {@code maxAge} (older ones are left to register
   * again), with the reports of its last heartbeat, as heard when it was.
   */
  public void handTo(NodeManager nodes, Duration maxAge) {
    long now = clock.monotonicMillis();
    int handed = 0;
    for (Heard node : heard.values()) {
      if (now - node.atMillis() > maxAge.toMillis()) {
        continue;
      }
      try {
        nodes.takeOver(node.registration(), node.heartbeat(), node.atMillis());
        handed++;
      } catch (ScmException e) {
        LOG.warn("Datanode {} heard as a follower must register again: {}",
            Uuids.fromProto(node.registration().getDatanode().getUuid()), e.getMessage());
      }
    }
    LOG.info("SCM takes over {} datanodes it heard from within {} while it followed", handed, maxAge);
  }
}
