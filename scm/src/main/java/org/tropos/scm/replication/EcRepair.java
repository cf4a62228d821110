package org.tropos.scm.replication;

import java.util.Map;
import java.util.UUID;
import org.tropos.common.ec.EcReplication;

/**
 * One repair of an erasure-coded container's index, planned or under way: index {@code index} put on
 * {@code target}, copied from its one source when {@code sources} names the index itself (a datanode leaving the
 * cluster), else rebuilt from the other indexes' {@code sources}; or ({@link #delete}) an extra replica of the index
 * deleted from {@code target}.
 *
 * @param deadlineMillis when SCM stops waiting for it (monotonic clock; 0 while only planned)
 */
record EcRepair(long containerId, EcReplication config, int index, UUID target, Map<Integer, UUID> sources,
    long deadlineMillis) {
  EcRepair {
    sources = Map.copyOf(sources);
  }

  /** The deletion of an extra replica of {@code index} on {@code node}. */
  static EcRepair delete(long containerId, EcReplication config, int index, UUID node) {
    return new EcRepair(containerId, config, index, node, Map.of(), 0);
  }

  boolean isDelete() {
    return sources.isEmpty();
  }

  boolean isCopy() {
    return sources.size() == 1 && sources.containsKey(index);
  }

  EcRepair sent(long deadline) {
    return new EcRepair(containerId, config, index, target, sources, deadline);
  }
}
