package org.tropos.common.ratis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.util.TimeDuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;

/**
 * This process's member of a replicated service's Raft group (the OMs of an OM HA service, the SCMs of an SCM HA
 * service): a Ratis server on its own port with the service's state machine. The group's id is derived from the
 * kind and id of the service, so every member and client that reads the same configuration forms the same group.
 * A new storage directory is formatted; an existing one recovers the group, its log replayed over the state.
 */
public final class RaftMember implements AutoCloseable {
  /** Election timeouts: long enough for a JVM pause on a busy two-core machine, short enough for a quick failover. */
  public static final Duration ELECTION_TIMEOUT_MIN = Duration.ofSeconds(1);
  public static final Duration ELECTION_TIMEOUT_MAX = Duration.ofSeconds(2);
  /** How many times, and how far apart, a client of the group retries while there is no leader. */
  private static final int CLIENT_ATTEMPTS = 30;
  private static final TimeDuration CLIENT_RETRY_SLEEP = TimeDuration.valueOf(300, TimeUnit.MILLISECONDS);
  /** How long this member waits for an entry it submitted to commit: beyond it the caller is told to retry. */
  private static final Duration SUBMIT_TIMEOUT = Duration.ofSeconds(10);
  /**
   * How long after a majority answered the leader it may take itself to lead: 90 % of the shortest timeout (with
   * Tropos's timeouts; {@link #lease} is this member's).
   */
  public static final Duration LEASE = ELECTION_TIMEOUT_MIN.multipliedBy(9).dividedBy(10);

  private final RaftGroup group;
  private final RaftServer server;
  /** Ratis's parameters of this member's server and clients: mutual TLS when the cluster runs secure. */
  private final Parameters parameters;
  /** {@link #LEASE}, or shorter when an operator shortened the election timeout ({@link #leaseOf}). */
  private final Duration lease;
  private final ClientId readClientId = ClientId.randomId();
  private final AtomicLong readCallIds = new AtomicLong();

  /**
   * @param peers the group's members: node id to Raft address
   * @param settings further Ratis settings of this service (snapshots, log segments, an operator's pass-through
   *     keys), applied last ({@link #properties})
   */
  public RaftMember(String kind, String serviceId, Map<String, HostPort> peers, String self, Path storageDir,
      StateMachine stateMachine, Consumer<RaftProperties> settings) throws IOException {
    this(kind, serviceId, peers, self, storageDir, stateMachine, settings, TransportSecurity.plaintext(), null);
  }

  /**
   * The same, the group's members speaking mutual TLS as {@code transport} says when it has TLS, each showing its
   * certificate and admitting only members whose certificates name {@code memberRole}.
   */
  public RaftMember(String kind, String serviceId, Map<String, HostPort> peers, String self, Path storageDir,
      StateMachine stateMachine, Consumer<RaftProperties> settings, TransportSecurity transport,
      ServiceRole memberRole) throws IOException {
    this.group = group(kind, serviceId, peers);
    this.parameters = RaftTls.closedGroupMember(transport, memberRole);
    RaftProperties properties = properties(peers.get(self).port(), storageDir, settings);
    this.lease = leaseOf(properties);
    boolean formatted = Files.isDirectory(storageDir.resolve(group.getGroupId().getUuid().toString()));
    this.server = RaftServer.newBuilder().setServerId(RaftPeerId.valueOf(self)).setGroup(group)
        .setProperties(properties).setParameters(parameters).setStateMachine(stateMachine)
        .setOption(formatted ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT).build();
  }

  /**
   * The Ratis settings of a member listening on {@code port}: Tropos's own choices for every replicated service,
   * then {@code settings}, so that what a service (or its operator) sets there wins.
   */
  public static RaftProperties properties(int port, Path storageDir, Consumer<RaftProperties> settings) {
    RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(properties, List.of(storageDir.toFile()));
    GrpcConfigKeys.Server.setPort(properties, port);
    RaftServerConfigKeys.Rpc.setTimeoutMin(properties, timeDuration(ELECTION_TIMEOUT_MIN));
    RaftServerConfigKeys.Rpc.setTimeoutMax(properties, timeDuration(ELECTION_TIMEOUT_MAX));
    commitPromptly(properties);
    settings.accept(properties);
    return properties;
  }

  /**
   * The leader lease under {@code properties}: 90 % of the shortest election timeout they set, so that an operator
   * who shortens the timeout shortens the lease with it.
   */
  public static Duration leaseOf(RaftProperties properties) {
    long timeoutMinMs = RaftServerConfigKeys.Rpc.timeoutMin(properties).toLong(TimeUnit.MILLISECONDS);
    return Duration.ofMillis(timeoutMinMs * 9 / 10);
  }

  /**
   * Settings that take a millisecond or more off every commit (measured: 2.7 ms → 1.5 ms from one thread, with a
   * state machine that does nothing; docs/benchmarks.md). Ratis's leader otherwise appends a metadata entry (the
   * commit index) after each commit: one more log write and sync on every member and one more send to each
   * follower per entry, kept only so that a restarted member knows the commit index before it hears a leader,
   * which these services do not need (a member serves only as a caught-up leader). And its log appenders wait at
   * least 1 ms after a send before the next one, so an entry that follows another closely (as every entry did its
   * metadata entry) is held back: batching is the committer's job here, one entry per batch.
   */
  private static void commitPromptly(RaftProperties properties) {
    RaftServerConfigKeys.Log.setLogMetadataEnabled(properties, false);
    RaftServerConfigKeys.Log.Appender.setWaitTimeMin(properties, TimeDuration.ZERO);
  }

  /** The Raft group of a service: the same for every member and client given the same configuration. */
  public static RaftGroup group(String kind, String serviceId, Map<String, HostPort> peers) {
    RaftGroupId id = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("tropos-" + kind + "-service:" + serviceId)
        .getBytes(StandardCharsets.UTF_8)));
    return RaftGroup.valueOf(id, peers.entrySet().stream().map(p -> RaftPeer.newBuilder().setId(p.getKey())
        .setAddress(p.getValue().toString()).build()).toList());
  }

  private static TimeDuration timeDuration(Duration d) {
    return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
  }

  public void start() throws IOException {
    server.start();
  }

  public RaftGroupId groupId() {
    return group.getGroupId();
  }

  /** This member's division of the group (its role, its log); fails once the member is closed. */
  public RaftServer.Division division() throws IOException {
    return server.getDivision(group.getGroupId());
  }

  /** Whether this member leads its group now. */
  public boolean isLeader() throws IOException {
    return server.getLifeCycleState().isRunning() && division().getInfo().isLeader();
  }

  /** The term this member is in. */
  public long currentTerm() throws IOException {
    return division().getInfo().getCurrentTerm();
  }

  /** Whether this member leads its group and has committed an entry of its term, so that it can take writes. */
  public boolean isReadyLeader() throws IOException {
    return isLeader() && division().getInfo().isLeaderReady();
  }

  /**
   * Whether this member leads its group, ready, and has applied every entry committed before: its state is then
   * the group's latest, and it may act on it.
   */
  public boolean isCaughtUpLeader() throws IOException {
    if (!isReadyLeader()) {
      return false;
    }
    RaftServer.Division division = division();
    return division.getInfo().getLastAppliedIndex() >= division.getRaftLog().getLastCommittedIndex();
  }

  /** A client of the group, which finds its leader and retries while there is none for a bounded time; close it. */
  public RaftClient newClient() {
    RaftProperties properties = new RaftProperties();
    return RaftClient.newBuilder().setProperties(properties).setRaftGroup(group).setRetryPolicy(
        RetryPolicies.retryUpToMaximumCountWithFixedSleep(CLIENT_ATTEMPTS, CLIENT_RETRY_SLEEP))
        .setClientRpc(new GrpcFactory(parameters).newRaftClientRpc(ClientId.randomId(), properties)).build();
  }

  /**
   * A gRPC client of {@code group} with {@code properties}, {@code retry} and {@code parameters} (its TLS,
   * {@link RaftTls#client}); the caller closes it.
   */
  public static RaftClient client(RaftGroup group, RaftProperties properties, RetryPolicy retry,
      Parameters parameters) {
    return RaftClient.newBuilder().setProperties(properties).setRaftGroup(group).setRetryPolicy(retry)
        .setClientRpc(new GrpcFactory(parameters).newRaftClientRpc(ClientId.randomId(), properties)).build();
  }

  /** Hands a log entry to the group; the future completes with its reply. */
  @FunctionalInterface
  public interface Submitter {
    CompletableFuture<RaftClientReply> submit(Message entry);
  }

  /**
   * Submits log entries to this member's own Raft server, in-process: no client hop, and a member that does not
   * lead gets NotLeader back rather than forwarding an entry it prepared as leader (its callers go to the leader).
   */
  public Submitter submitter() {
    ClientId clientId = ClientId.randomId();
    AtomicLong callIds = new AtomicLong();
    return entry -> submitLocally(clientId, callIds.incrementAndGet(), entry, RaftClientRequest.writeRequestType())
        .orTimeout(SUBMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Hands a request to this member's own Raft server, in-process, as a client with {@code clientId} would. */
  private CompletableFuture<RaftClientReply> submitLocally(ClientId clientId, long callId, Message message,
      RaftClientRequest.Type type) {
    RaftClientRequest request = RaftClientRequest.newBuilder().setClientId(clientId).setServerId(server.getId())
        .setGroupId(group.getGroupId()).setCallId(callId).setMessage(message).setType(type).build();
    try {
      return server.submitClientRequestAsync(request);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }


  /**
   * Whether this member leads its group and holds its leader lease: a majority of the group (this member
   * included) answered it within the last {@link #lease}. No member can start an election sooner than the
   * shortest election timeout after it last heard from the leader, so while the lease holds no other leader
   * can have been elected. A leader cut off from its followers believes it leads until Ratis steps it down (up to
   * the longest election timeout later); the lease ends before any other member may take over.
   */
  public boolean holdsLease() throws IOException {
    if (!isLeader()) {
      return false;
    }
    int needed = group.getPeers().size() / 2;
    if (needed == 0) {
      return true;
    }
    RoleInfoProto role = division().getInfo().getRoleInfoProto();
    long[] elapsed = role.getLeaderInfo().getFollowerInfoList().stream()
        .mapToLong(ServerRpcProto::getLastRpcElapsedTimeMs).sorted().toArray();
    // The lease runs from the moment the needed-th quickest follower last answered.
    return elapsed.length >= needed && elapsed[needed - 1] < lease.toMillis();
  }

  /** How long after a majority answered this member, as leader, it may take itself to lead ({@link #holdsLease}). */
  public Duration lease() {
    return lease;
  }

  /**
   * A linearizable read of nothing, in-process: completes once this member has applied everything the group had
   * committed when the read arrived (a follower asks the leader for its commit index). A member with no leader to
   * ask gets no answer. Needs read option LINEARIZABLE ({@link #linearizableReads}) and a state machine that
   * answers queries.
   */
  public CompletableFuture<RaftClientReply> readBarrier() {
    return submitLocally(readClientId, readCallIds.incrementAndGet(), Message.EMPTY,
        RaftClientRequest.readRequestType());
  }

  /** Makes read requests linearizable ({@link #readBarrier}); a leader holding its lease answers them at once. */
  public static void linearizableReads(RaftProperties properties) {
    RaftServerConfigKeys.Read.setOption(properties, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setLeaderLeaseEnabled(properties, true);
  }

  /** The first index this member's log still holds (entries before it were purged behind a snapshot). */
  public long logStartIndex() throws IOException {
    return division().getRaftLog().getStartIndex();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
