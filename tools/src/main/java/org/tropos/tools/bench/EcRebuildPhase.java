package org.tropos.tools.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.tools.local.LocalCluster;

/**
 * The rebuild phase of {@code tropos bench ec}: SCM restarted to declare a stopped datanode DEAD after 6 s, the
 * datanode holding the most erasure-coded replicas stops, and the time from its being declared DEAD until every
 * index it held is CLOSED on a running datanode is measured, against a plain copy of its data on this disk.
 */
final class EcRebuildPhase {
  private static final Duration LIMIT = Duration.ofMinutes(5);

  private final LocalCluster cluster;
  private final Path root;
  private final Clock clock;

  EcRebuildPhase(LocalCluster cluster, Path root, Clock clock) {
    this.cluster = cluster;
    this.root = root;
    this.clock = clock;
  }

  /** What the phase measured: the victim's EC replicas and their bytes, the rebuild's time, the copy limit. */
  record Rebuild(int replicas, long bytes, double seconds, long copyBytes, double copyLimitMBps, boolean healed) {
    double mbps() {
      return bytes / 1e6 / seconds;
    }
  }

  Rebuild run() throws Exception {
    cluster.restartScm(Map.of("ozone.scm.dead.node.interval", "6s"));
    try (ScmAdminClient admin = new ScmAdminClient(new HostPort("127.0.0.1", cluster.scm().clientPort()))) {
      // A datanode stopped before the restarted SCM heard from it would never be declared DEAD by it.
      Threads.awaitCondition("every datanode registered with the restarted SCM", Duration.ofSeconds(60),
          Duration.ofMillis(100), () -> admin.listDatanodes(NodeState.HEALTHY).size() == cluster.datanodeCount());
    }
    // Read from the disk, as the peer's rebuild is (HdfsEcRebuildPeer): the GETs before may have left pages cached.
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      PageCache.evict(dataVolume(i));
    }
    int victim = busiest();
    DatanodeServer node = cluster.datanode(victim);
    UUID victimId = node.id().uuid();
    Map<Long, Integer> lost = new TreeMap<>();
    long bytes = 0;
    for (ContainerReport r : node.store().reports()) {
      if (r.getReplicaIndex() > 0) {
        lost.put(r.getContainerId(), r.getReplicaIndex());
        bytes += r.getUsedBytes();
      }
    }
    cluster.stopDatanode(victim);
    try (ScmAdminClient admin = new ScmAdminClient(new HostPort("127.0.0.1", cluster.scm().clientPort()))) {
      Threads.awaitCondition("the stopped datanode declared DEAD", Duration.ofSeconds(60), Duration.ofMillis(100),
          () -> admin.listDatanodes(NodeState.DEAD).stream()
              .anyMatch(d -> Uuids.fromProto(d.getDetails().getUuid()).equals(victimId)));
    }
    long dead = clock.monotonicNanos();
    boolean healed = true;
    try {
      Threads.awaitCondition("every lost index rebuilt", LIMIT, Duration.ofMillis(200), () -> rebuilt(lost));
    } catch (TimeoutException e) {
      healed = false;
    }
    double seconds = (clock.monotonicNanos() - dead) / 1e9;
    CopyLimit.Copy copy = CopyLimit.measure(dataVolume(victim), root.resolve("copy-limit"), clock);
    return new Rebuild(lost.size(), bytes, seconds, copy.bytes(), copy.mbps(), healed);
  }

  private Path dataVolume(int datanode) {
    return root.resolve("cluster").resolve("dn" + datanode).resolve("data1");
  }

  /** The running datanode holding the most erasure-coded replicas. */
  private int busiest() {
    int best = 1;
    long most = -1;
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      long held = cluster.datanode(i).store().reports().stream().filter(r -> r.getReplicaIndex() > 0).count();
      if (held > most) {
        most = held;
        best = i;
      }
    }
    return best;
  }

  /** Whether each lost index is held CLOSED by a running datanode. */
  private boolean rebuilt(Map<Long, Integer> lost) {
    return lost.entrySet().stream().allMatch(e -> heldSomewhere(e.getKey(), e.getValue()));
  }

  private boolean heldSomewhere(long container, int index) {
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      DatanodeServer datanode = cluster.datanode(i);
      if (datanode != null && datanode.store() != null) {
        ContainerDescriptor d = datanode.store().descriptor(container).orElse(null);
        if (d != null && d.getReplicaIndex() == index && d.getState() == ContainerState.CONTAINER_CLOSED) {
          return true;
        }
      }
    }
    return false;
  }
}
