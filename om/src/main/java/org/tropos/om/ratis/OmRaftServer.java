package org.tropos.om.ratis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.tropos.common.net.OmService;
import org.tropos.om.OmConfig;
import org.tropos.om.db.OmDb;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.rpc.Leadership;

/**
 * This OM's member of its service's Raft group (one group per OM service, its id derived from the service id, a
 * peer per configured node): a Ratis server whose {@link OmStateMachine} applies write sets to this OM's database.
 * A new storage directory is formatted; an existing one recovers the group, its log replayed over the database.
 */
public final class OmRaftServer implements AutoCloseable {
  /** Election timeouts: long enough for a JVM pause on a busy two-core machine, short enough for a quick failover. */
  private static final TimeDuration ELECTION_MIN = TimeDuration.valueOf(1, TimeUnit.SECONDS);
  private static final TimeDuration ELECTION_MAX = TimeDuration.valueOf(2, TimeUnit.SECONDS);
  /** How long a batch may wait for a leader to take it: several elections' worth. */
  private static final int COMMIT_ATTEMPTS = 30;
  /** How long the leader waits for its own batch to commit: beyond it the batch's callers are told to retry. */
  private static final java.time.Duration SUBMIT_TIMEOUT = java.time.Duration.ofSeconds(10);
  private static final TimeDuration COMMIT_RETRY_SLEEP = TimeDuration.valueOf(300, TimeUnit.MILLISECONDS);

  private final RaftGroup group;
  private final RaftServer server;
  private final OmService service;
  private final String self;

  public OmRaftServer(OmConfig.Ha ha, OmDb db) throws IOException {
    this.group = groupOf(ha.service());
    this.service = ha.service();
    this.self = ha.self().id();
    RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(properties, List.of(ha.ratisDir().toFile()));
    GrpcConfigKeys.Server.setPort(properties, ha.self().ratis().port());
    RaftServerConfigKeys.Rpc.setTimeoutMin(properties, ELECTION_MIN);
    RaftServerConfigKeys.Rpc.setTimeoutMax(properties, ELECTION_MAX);
    RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(ha.segmentBytes()));
    // Snapshots (RocksDB checkpoints) let the log be purged; a follower that needs purged entries installs one.
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, ha.snapshotThreshold());
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
    RaftServerConfigKeys.Log.setPurgeGap(properties, ha.purgeGap());
    boolean formatted = Files.isDirectory(ha.ratisDir().resolve(group.getGroupId().getUuid().toString()));
    this.server = RaftServer.newBuilder().setServerId(RaftPeer.newBuilder().setId(self).build().getId())
        .setGroup(group).setProperties(properties).setStateMachine(new OmStateMachine(db))
        .setOption(formatted ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT).build();
  }

  /** The Raft group of an OM service: the same on every OM and every client that reads the same configuration. */
  public static RaftGroup groupOf(OmService service) {
    RaftGroupId id = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("tropos-om-service:" + service.id())
        .getBytes(StandardCharsets.UTF_8)));
    return RaftGroup.valueOf(id, service.nodes().stream().map(n -> RaftPeer.newBuilder().setId(n.id())
        .setAddress(n.ratis().toString()).build()).toList());
  }

  public void start() throws IOException {
    server.start();
  }

  /** A client of the group, for this OM's committer; the caller closes it. */
  public RaftClient newClient() {
    RaftProperties properties = new RaftProperties();
    // Bounded: with no majority the committer's batch fails (the OM answers "not ready") instead of hanging.
    return RaftClient.newBuilder().setProperties(properties).setRaftGroup(group)
        .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(COMMIT_ATTEMPTS, COMMIT_RETRY_SLEEP))
        .setClientRpc(new GrpcFactory(new Parameters()).newRaftClientRpc(ClientId.randomId(), properties)).build();
  }

  /**
   * Submits log entries to this OM's own Raft server, in-process: no client hop, and an OM that does not lead
   * gets NotLeader back rather than forwarding a batch it validated (its callers then go to the leader).
   */
  public RatisBatchLog.Submitter submitter() {
    ClientId clientId = ClientId.randomId();
    AtomicLong callIds = new AtomicLong();
    return entry -> {
      RaftClientRequest request = RaftClientRequest.newBuilder().setClientId(clientId).setServerId(server.getId())
          .setGroupId(group.getGroupId()).setCallId(callIds.incrementAndGet()).setMessage(entry)
          .setType(RaftClientRequest.writeRequestType()).build();
      try {
        return server.submitClientRequestAsync(request).orTimeout(SUBMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (IOException e) {
        return CompletableFuture.failedFuture(e);
      }
    };
  }

  /** When this OM may serve clients: as its group's leader, caught up; {@code ids} are started in its terms. */
  public Leadership leadership(ObjectIds ids) {
    return new OmLeadership(server, group.getGroupId(), service, self, ids, this::newClient);
  }

  /** Whether this OM leads its group now. */
  public boolean isLeader() throws IOException {
    return server.getLifeCycleState().isRunning() && server.getDivision(group.getGroupId()).getInfo().isLeader();
  }

  /** The first index this OM's Raft log still holds (entries before it were purged behind a snapshot). */
  public long raftLogStartIndex() throws IOException {
    return server.getDivision(group.getGroupId()).getRaftLog().getStartIndex();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
