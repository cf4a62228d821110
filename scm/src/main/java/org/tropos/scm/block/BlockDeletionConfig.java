package org.tropos.scm.block;

import java.time.Duration;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;

/**
 * How SCM sends the blocks of deleted keys to the datanodes.
 *
 * @param interval hdds.scm.block.deleting.service.interval: how often a run sends deletions
 * @param perIntervalMax hdds.scm.block.deletion.per-interval.max: most blocks sent in one run, and most
 *     transactions awaiting acknowledgement at once
 * @param maxRetry ozone.scm.block.deletion.max.retry: re-sends of one transaction before SCM stops trying
 * @param resendAfter how long a datanode has to acknowledge a deletion before it is sent again
 */
public record BlockDeletionConfig(Duration interval, int perIntervalMax, int maxRetry, Duration resendAfter) {
  /** A datanode that heartbeats on time acknowledges within two heartbeats; allow it ten before re-sending. */
  private static final int HEARTBEATS_BEFORE_RESEND = 10;

  public static BlockDeletionConfig from(Configuration conf, Duration heartbeatInterval) {
    Duration interval = conf.get(ScmKeys.BLOCK_DELETING_SERVICE_INTERVAL);
    Duration resendAfter = heartbeatInterval.multipliedBy(HEARTBEATS_BEFORE_RESEND);
    return new BlockDeletionConfig(interval, conf.get(ScmKeys.BLOCK_DELETION_PER_INTERVAL_MAX),
        conf.get(ScmKeys.BLOCK_DELETION_MAX_RETRY), resendAfter.compareTo(interval) < 0 ? interval : resendAfter);
  }
}
