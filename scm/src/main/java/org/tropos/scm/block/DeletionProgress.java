package org.tropos.scm.block;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What SCM knows of one deleted-blocks transaction it has sent: which holders acknowledged it, when each was last
 * sent it, and how often it was re-sent. Kept in memory only. Guarded by the {@link BlockDeletingService}'s monitor.
 */
final class DeletionProgress {
  private final long containerId;
  private final Set<UUID> acknowledged = new HashSet<>();
  private final Map<UUID, Long> sentAtMillis = new HashMap<>();
  private int resends;
  private boolean gaveUp;

  DeletionProgress(long containerId) {
    this.containerId = containerId;
  }

  long containerId() {
    return containerId;
  }

  void acknowledge(UUID datanode) {
    acknowledged.add(datanode);
  }

  boolean acknowledgedBy(UUID datanode) {
    return acknowledged.contains(datanode);
  }

  boolean acknowledgedByAll(Collection<UUID> holders) {
    return acknowledged.containsAll(holders);
  }

  boolean wasSentTo(UUID datanode) {
    return sentAtMillis.containsKey(datanode);
  }

  /** Never sent to {@code datanode}, or sent at least {@code resendAfterMs} ago. */
  boolean due(UUID datanode, long nowMillis, long resendAfterMs) {
    Long at = sentAtMillis.get(datanode);
    return at == null || nowMillis - at >= resendAfterMs;
  }

  void sent(UUID datanode, long nowMillis) {
    sentAtMillis.put(datanode, nowMillis);
  }

  /** Counts a re-send; false (and from then on {@link #gaveUp()}) once there were more than {@code maxRetry}. */
  boolean countResend(int maxRetry) {
    if (++resends > maxRetry) {
      gaveUp = true;
    }
    return !gaveUp;
  }

  boolean gaveUp() {
    return gaveUp;
  }
}
