package org.tropos.om.ratis;

import java.nio.file.Path;
import java.util.Map;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.RatisPassThrough;
import org.tropos.common.net.OmService;
import org.tropos.common.ratis.RaftSnapshotPolicy;

/**
 * An OM of an HA service.
 *
 * @param service the service's OMs
 * @param self this OM among them
 * @param ratisDir where this OM's Raft log is kept ({@code ozone.om.ratis.storage.dir}, else {@code om-ratis}
 *     beside the database)
 * @param snapshots when this OM snapshots its database and purges its Raft log
 * @param followerReads whether this OM answers read calls as a follower (linearizable: after the leader's
 *     commit index is applied here)
 * @param ratisProperties Ratis keys set through {@code ozone.om.ratis.raft.*} ({@link RatisPassThrough}),
 *     applied over Tropos's own choices
 */
public record OmHaConfig(OmService service, OmService.Node self, Path ratisDir, RaftSnapshotPolicy snapshots,
    boolean followerReads, Map<String, String> ratisProperties) {

  public OmHaConfig {
    ratisProperties = Map.copyOf(ratisProperties);
  }

  /** OM {@code self} of {@code service}, its Raft log in {@code ratisDir} and set up as {@code conf} says. */
  public static OmHaConfig from(Configuration conf, OmService service, OmService.Node self, Path ratisDir) {
    return new OmHaConfig(service, self, ratisDir, new RaftSnapshotPolicy(conf.get(OmKeys.RATIS_SNAPSHOT_THRESHOLD),
        conf.get(OmKeys.RATIS_LOG_PURGE_GAP), conf.get(OmKeys.RATIS_SEGMENT_SIZE).bytes()),
        conf.get(OmKeys.FOLLOWER_READ_ENABLED), RatisPassThrough.of(conf, RatisPassThrough.OM));
  }
}
