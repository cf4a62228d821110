package org.tropos.om.ratis;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.ratis.RaftMember;
import org.tropos.om.OmConfig;
import org.tropos.om.db.OmDb;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.rpc.Leadership;

/**
 * This OM's member of its service's Raft group (one group per OM service, a peer per configured node): a
 * {@link RaftMember} whose {@link OmStateMachine} applies write sets to this OM's database.
 */
public final class OmRaftServer implements AutoCloseable {
  private static final String KIND = "om";
  private static final SizeInBytes SNAPSHOT_CHUNK = SizeInBytes.valueOf("4MB");
  private static final TimeDuration SNAPSHOT_CHUNK_TIMEOUT = TimeDuration.valueOf(1500, TimeUnit.MILLISECONDS);

  private final RaftMember member;
  private final OmService service;
  private final String self;

  public OmRaftServer(OmConfig.Ha ha, OmDb db) throws IOException {
    this.service = ha.service();
    this.self = ha.self().id();
    this.member = new RaftMember(KIND, service.id(), peers(service), self, ha.ratisDir(), new OmStateMachine(db),
        properties -> {
          RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(ha.segmentBytes()));
          // Snapshots (RocksDB checkpoints) let the log be purged; a follower that needs purged entries installs one.
          RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
          RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, ha.snapshotThreshold());
          RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
          RaftServerConfigKeys.Log.setPurgeGap(properties, ha.purgeGap());
          // A snapshot stream that failed (the follower was down) holds the leader's sender for 8 request
          // timeouts before it tries again: smaller chunks allow a shorter timeout, so a follower that comes back
          // waits about 12 s rather than 24 s.
          RaftServerConfigKeys.Log.Appender.setSnapshotChunkSizeMax(properties, SNAPSHOT_CHUNK);
          GrpcConfigKeys.Server.setInstallSnapshotRequestTimeout(properties, SNAPSHOT_CHUNK_TIMEOUT);
        });
  }

  private static Map<String, HostPort> peers(OmService service) {
    Map<String, HostPort> peers = new LinkedHashMap<>();
    service.nodes().forEach(n -> peers.put(n.id(), n.ratis()));
    return peers;
  }

  public void start() throws IOException {
    member.start();
  }

  /** A client of the group, for tests that propose from any member; the caller closes it. */
  public RaftClient newClient() {
    return member.newClient();
  }

  /** Submits this OM's batches to its own Raft server ({@link RaftMember#submitter}). */
  public RaftMember.Submitter submitter() {
    return member.submitter();
  }

  /** When this OM may serve clients: as its group's leader, caught up; {@code ids} are started in its terms. */
  public Leadership leadership(ObjectIds ids) {
    return new OmLeadership(member, service, self, ids);
  }

  /** Whether this OM leads its group now. */
  public boolean isLeader() throws IOException {
    return member.isLeader();
  }

  /** The first index this OM's Raft log still holds (entries before it were purged behind a snapshot). */
  public long raftLogStartIndex() throws IOException {
    return member.logStartIndex();
  }

  @Override
  public void close() throws IOException {
    member.close();
  }
}
