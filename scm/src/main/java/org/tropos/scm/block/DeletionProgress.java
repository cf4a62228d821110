package org.tropos.scm.block;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * What SCM knows of one deleted-blocks transaction it has sent: which holders acknowledged it (and for which
 * incarnation of their replica), when each was last sent it, and how often it was re-sent. Kept in memory only.
 * Guarded by the {@link BlockDeletingService}'s monitor.
 */
final class DeletionProgress {
  private final long containerId;
  /** Who acknowledged it, with the incarnation of the replica that carried it out. */
  private final Map<UUID, Long> acknowledged = new HashMap<>();
  private final Map<UUID, Long> sentAtMillis = new HashMap<>();
  private int resends;
  private boolean gaveUp;

  DeletionProgress(long containerId) {
    this.containerId = containerId;
  }

  long containerId() {
    return containerId;
  }

  void acknowledge(UUID datanode, long incarnation) {
    acknowledged.put(datanode, incarnation);
  }

  /** Whether the datanode's replica of incarnation {@code incarnation} carried it out. */
  boolean acknowledgedBy(UUID datanode, long incarnation) {
    Long by = acknowledged.get(datanode);
    return by != null && by == incarnation;
  }

  /** Whether every holder's current replica (holder to incarnation) carried it out. */
  boolean acknowledgedByAll(Map<UUID, Long> holders) {
    return holders.entrySet().stream().allMatch(h -> acknowledgedBy(h.getKey(), h.getValue()));
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
