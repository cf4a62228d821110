package org.tropos.common.ratis;

import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * When a replicated service's member snapshots its state and purges its Raft log behind the snapshot: snapshots
 * let the log be purged; a follower that needs purged entries installs the leader's latest snapshot instead.
 *
 * @param threshold log entries applied between two snapshots
 * @param purgeGap log entries a snapshot must cover beyond the last purge before the log is purged up to it
 * @param segmentBytes size of a Raft log segment: purges drop whole segments
 */
public record RaftSnapshotPolicy(long threshold, int purgeGap, long segmentBytes) {
  private static final SizeInBytes SNAPSHOT_CHUNK = SizeInBytes.valueOf("4MB");
  private static final TimeDuration SNAPSHOT_CHUNK_TIMEOUT = TimeDuration.valueOf(1500, TimeUnit.MILLISECONDS);

  /** Sets these in a member's Ratis properties. */
  public void apply(RaftProperties properties) {
    RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(segmentBytes));
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, threshold);
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
    RaftServerConfigKeys.Log.setPurgeGap(properties, purgeGap);
    // A snapshot stream that failed (the follower was down) holds the leader's sender for 8 request timeouts
    // before it tries again: smaller chunks allow a shorter timeout, so a follower that comes back waits about
    // 12 s rather than 24 s.
    RaftServerConfigKeys.Log.Appender.setSnapshotChunkSizeMax(properties, SNAPSHOT_CHUNK);
    GrpcConfigKeys.Server.setInstallSnapshotRequestTimeout(properties, SNAPSHOT_CHUNK_TIMEOUT);
  }
}
