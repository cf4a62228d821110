package org.tropos.datanode.ratis;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.RatisPassThrough;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.common.ratis.PromptCommitGrpc;
import org.tropos.common.ratis.RaftTls;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.CloseContainer;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.hdds.RaftRole;

/**
 * The datanode's one Ratis {@link RaftServer}, hosting one Raft group per pipeline. Each group's RaftLog goes to
 * the RaftLog directory with the fewest groups (Ratis picks the storage directory with the fewest entries; the
 * directories hold nothing else). Groups found on disk at start are recovered; new ones are formatted.
 *
 * <p>Thread-safety: Ratis's server is thread-safe; group changes come from the datanode's one command thread.
 */
public final class RatisPipelines implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RatisPipelines.class);
  private static final long TRANSFER_TIMEOUT_MS = 10_000;
  /** The largest chunk (4 MB, ozone.scm.chunk.size) plus room for the command around it. */
  private static final long ENTRY_BUFFER_BYTES = 5L << 20;
  /** Uncommitted bytes a group's leader holds before writers must wait (Ratis's default is 64 MB). */
  private static final long PENDING_WRITE_BYTES = 16L << 20;
  /** Bytes of entries (chunks included) waiting in one group's log queue; must fit one chunk entry. */
  private static final long LOG_QUEUE_BYTES = 8L << 20;
  /**
   * Size of a group's RaftLog segment. Ratis keeps every entry of the open segment in memory, and a closed one until
   * it is evicted: with its 32 MB default a group of small PUTs kept ~90,000 entries (about 60 MB of heap) before
   * its first segment closed, and a datanode hosts several groups.
   */
  private static final long LOG_SEGMENT_BYTES = 2L << 20;
  /** Closed segments a group keeps cached past which Ratis evicts those every member has (Ratis: 6). */
  private static final int CACHED_CLOSED_SEGMENTS = 2;
  private static final int CHUNK_WRITERS = 4;
  /**
   * Chunk writes waiting for a writer thread (each pins its chunk, up to 4 MB); past this Ratis's own thread writes
   * the chunk, which slows appends and, through the leader's pending-write limit, the clients.
   */
  private static final int CHUNK_WRITE_QUEUE = 8;

  private final String nodeName;
  private final MeterRegistry registry;
  private final RaftPeerId me;
  private final String host;
  private final int port;
  private final List<Path> logDirs;
  private final ContainerStore store;
  private final TransportSecurity transport;
  private final BlockAccess access;
  private final long snapshotEveryEntries;
  private final Map<String, String> operatorProperties;
  private final LifeCycle lifeCycle;
  private ExecutorService chunkWriters;
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();
  private RaftServer server;
  /** Where clients of this JVM find the server ({@link InProcessServers}); null until started. */
  private InetSocketAddress inProcess;

  /**
   * @param port the Ratis port; 0 picks a free one (see {@link #port()})
   * @param store where the pipelines' state machines keep containers and blocks
   * @param snapshotEveryEntries log entries between two snapshots of a group (hdds.ratis.snapshot.threshold)
   * @param operatorProperties Ratis keys an operator set (hdds.ratis.raft.*), applied over Tropos's own
   */
  public RatisPipelines(String nodeName, UUID datanodeId, String host, int port, List<Path> logDirs,
      ContainerStore store, long snapshotEveryEntries, Map<String, String> operatorProperties) {
    this(nodeName, datanodeId, host, port, logDirs, store, TransportSecurity.plaintext(), BlockAccess.OPEN,
        snapshotEveryEntries, operatorProperties, new CompositeMeterRegistry());
  }

  /**
   * @param transport TLS of the Raft port in a secure cluster: mutual between datanodes, which alone may append,
   *     vote or manage groups; clients write over TLS, with or without a certificate ({@link RaftTls})
   * @param access which commands from clients are taken (block tokens in a secure cluster)
   * @param registry where each pipeline's commit latency is timed ({@code datanode_raft_commit_seconds})
   */
  public RatisPipelines(String nodeName, UUID datanodeId, String host, int port, List<Path> logDirs,
      ContainerStore store, TransportSecurity transport, BlockAccess access, long snapshotEveryEntries,
      Map<String, String> operatorProperties, MeterRegistry registry) {
    this.transport = transport;
    this.access = access;
    this.registry = registry;
    this.nodeName = nodeName;
    this.me = RaftPeerId.valueOf(datanodeId.toString());
    this.host = host;
    this.port = port;
    this.logDirs = List.copyOf(logDirs);
    this.store = store;
    this.snapshotEveryEntries = snapshotEveryEntries;
    this.operatorProperties = Map.copyOf(operatorProperties);
    this.lifeCycle = new LifeCycle(nodeName + "-ratis");
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(properties, logDirs.stream().map(Path::toFile).toList());
    RaftServerConfigKeys.setStorageFreeSpaceMin(properties, SizeInBytes.valueOf("16MB"));
    GrpcConfigKeys.Server.setHost(properties, host);
    GrpcConfigKeys.Server.setPort(properties, port);
    // Entries carry a chunk as stateMachineData on their way through the leader; buffers must fit one.
    RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf(ENTRY_BUFFER_BYTES));
    RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf(ENTRY_BUFFER_BYTES + (64 << 10)));
    // Elections only after a second of silence: on a loaded machine the default 150-300 ms churned leaders.
    // Losing a datanode is detected by SCM (stale interval), which closes and replaces its pipelines.
    RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(1, TimeUnit.SECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(2, TimeUnit.SECONDS));
    // Bound what a group's leader accepts before it is committed: writers wait rather than fill the heap.
    RaftServerConfigKeys.Write.setByteLimit(properties, SizeInBytes.valueOf(PENDING_WRITE_BYTES));
    // Entries wait in each group's log queue with their chunk bytes until written; Ratis allows 64 MB per group,
    // several groups per datanode. Bounded like every other queue here.
    RaftServerConfigKeys.Log.setQueueByteLimit(properties, SizeInBytes.valueOf(LOG_QUEUE_BYTES));
    // The state machine keeps a chunk's bytes only until its entry is applied (ContainerStateMachine), so Ratis's
    // log cache holds entries without them. Left off, every group cached up to 200 MB of chunk bytes and six
    // datanodes' groups exhausted a 2 GB heap (a heap dump of the write benchmark showed 1.27 GB there).
    RaftServerConfigKeys.Log.StateMachineData.setCachingEnabled(properties, true);
    RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(LOG_SEGMENT_BYTES));
    RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf(LOG_SEGMENT_BYTES));
    RaftServerConfigKeys.Log.setSegmentCacheNumMax(properties, CACHED_CLOSED_SEGMENTS);
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, snapshotEveryEntries);
    // A snapshot here only marks block files synced: it cannot be installed on a member that lags behind. So the
    // log is trimmed only up to what every member has committed, never past a lagging follower to the snapshot
    // (purging up to the snapshot left a follower a few entries behind needing an install, which failed and
    // stopped its group: writes then waited for it until they fell back to a majority, ~2 PUT/s).
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, false);
    // No metadata entry (the commit index) appended after each commit: with it every small PUT was two log entries
    // on each replica. Followers still hear of each commit at once, from the leader's appenders (PromptCommitGrpc).
    RaftServerConfigKeys.Log.setLogMetadataEnabled(properties, false);
    PromptCommitGrpc.use(properties);
    operatorProperties.forEach(properties::set);
    if (!operatorProperties.isEmpty()) {
      LOG.info("{}: Ratis settings from {}raft.*: {}", nodeName, RatisPassThrough.DATANODE, operatorProperties);
    }
    chunkWriters = Threads.boundedPoolWithBackpressure(nodeName + "-chunk-writer", CHUNK_WRITERS,
        CHUNK_WRITE_QUEUE);
    server = RaftServer.newBuilder().setServerId(me).setProperties(properties)
        .setParameters(RaftTls.openGroupMember(transport, ServiceRole.DATANODE))
        .setStateMachineRegistry(group -> new ContainerStateMachine(store, access, group, chunkWriters, registry))
        .setOption(RaftStorage.StartupOption.RECOVER).build();
    server.start();
    inProcess = new InetSocketAddress(host, boundPort());
    InProcessServers.addRaft(inProcess, new InProcessRaft(server, registry));
    lifeCycle.startEnds();
    LOG.info("{}: Ratis server {} on port {} recovered {} pipelines; RaftLog directories {}", nodeName, me, port(),
        groupIds().size(), logDirs);
  }

  /** The bound port. */
  public int port() {
    lifeCycle.assertRunning();
    return boundPort();
  }

  private int boundPort() {
    return ((InetSocketAddress) server.getServerRpc().getInetSocketAddress()).getPort();
  }

  /** Joins the pipeline's Raft group unless already in it; the suggested leader gets the highest priority. */
  public void join(PipelineId pipeline, List<DatanodeDetails> members, UUID suggestedLeader) throws IOException {
    RaftGroupId groupId = groupIdOf(pipeline);
    if (groupIds().contains(groupId)) {
      return;
    }
    removeLeftovers(groupId);
    List<RaftPeer> peers = new ArrayList<>();
    for (DatanodeDetails member : members) {
      UUID id = Uuids.fromProto(member.getUuid());
      peers.add(RaftPeer.newBuilder().setId(id.toString()).setAddress(ratisAddress(member))
          .setPriority(id.equals(suggestedLeader) ? 1 : 0).build());
    }
    check(server.groupManagement(GroupManagementRequest.newAdd(clientId, me, callIds.incrementAndGet(),
        RaftGroup.valueOf(groupId, peers), true)), "join pipeline " + groupId.getUuid());
    LOG.info("{}: joined pipeline {} with {}", nodeName, groupId.getUuid(), peers);
  }

  /**
   * Deletes a directory of a group this server does not host. Ratis loads every group directory at start, so
   * such a directory is what a failed join left behind; it would make every later join fail.
   */
  private void removeLeftovers(RaftGroupId groupId) throws IOException {
    for (Path logDir : logDirs) {
      Path leftover = logDir.resolve(groupId.getUuid().toString());
      if (Files.exists(leftover)) {
        LOG.warn("{}: removing {} left by a failed join of pipeline {}", nodeName, leftover, groupId.getUuid());
        try (Stream<Path> paths = Files.walk(leftover)) {
          for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
  }

  /**
   * Leaves the pipeline's group and deletes its RaftLog, having first recorded the blocks committed by entries it
   * has not applied (they may be nowhere else); nothing happens if not in it.
   */
  public void leave(PipelineId pipeline) throws IOException {
    RaftGroupId groupId = groupIdOf(pipeline);
    if (!groupIds().contains(groupId)) {
      return;
    }
    keepUnappliedBlocks(groupId);
    check(server.groupManagement(GroupManagementRequest.newRemove(clientId, me, callIds.incrementAndGet(), groupId,
        true, false)), "leave pipeline " + groupId.getUuid());
    LOG.info("{}: left pipeline {}", nodeName, groupId.getUuid());
  }

  /**
   * Closes this node's replica of a container as QUASI_CLOSED, without its pipeline (SCM says it is gone), having
   * first recorded the blocks committed by entries of the pipeline's log it has not applied: once the replica has
   * left OPEN their replay is refused, and after a power cut their rows are nowhere but in that log. Entries the
   * member receives after that (its group not left yet) are refused by the replica, a CloseContainer among them
   * included, so it stays QUASI_CLOSED with the writes it has; SCM closes the container by a replica holding its
   * highest committed write, so no lock with the apply thread is needed for nothing to be lost.
   */
  public void quasiClose(long containerId) throws IOException, DatanodeException {
    Optional<PipelineId> pipeline = store.descriptor(containerId).map(ContainerDescriptor::getPipelineId);
    if (pipeline.isPresent() && groupIds().contains(groupIdOf(pipeline.get()))) {
      keepUnappliedBlocks(groupIdOf(pipeline.get()));
    }
    store.quasiClose(containerId);
  }

  private void keepUnappliedBlocks(RaftGroupId groupId) throws IOException {
    RaftServer.Division division = server.getDivision(groupId);
    UnappliedBlocks.keep(division.getRaftLog(), division.getInfo().getLastAppliedIndex(), store,
        nodeName + " pipeline " + groupId.getUuid());
  }

  /**
   * Hands leadership of a pipeline this node leads to another member. The new leader first gets the highest
   * priority (Ratis only transfers to the highest-priority peer, and would otherwise move leadership back to the
   * old favourite), then leadership moves; waits until done or failed.
   */
  public void transferLeadership(PipelineId pipeline, UUID newLeader) throws IOException {
    RaftGroupId groupId = groupIdOf(pipeline);
    RaftServer.Division division = server.getDivision(groupId);
    RaftPeerId target = RaftPeerId.valueOf(newLeader.toString());
    List<RaftPeer> reprioritised = new ArrayList<>();
    for (RaftPeer peer : division.getRaftConf().getCurrentPeers()) {
      reprioritised.add(RaftPeer.newBuilder(peer).setPriority(peer.getId().equals(target) ? 1 : 0).build());
    }
    check(server.setConfiguration(new SetConfigurationRequest(clientId, me, groupId, callIds.incrementAndGet(),
        reprioritised)), "raise the priority of " + newLeader + " in " + groupId.getUuid());
    RaftClientReply reply = server.transferLeadership(new TransferLeadershipRequest(clientId, me, groupId,
        callIds.incrementAndGet(), target, TRANSFER_TIMEOUT_MS));
    if (!reply.isSuccess() && !target.equals(division.getInfo().getLeaderId())) {
      check(reply, "transfer leadership of " + groupId.getUuid());
    }
    LOG.info("{}: handed leadership of pipeline {} to {}", nodeName, groupId.getUuid(), newLeader);
  }

  /**
   * Closes a container through the pipeline's Raft group, so every replica closes at the same log position.
   * Only the leader can; elsewhere the request fails and SCM sends it to the leader it sees next time.
   */
  public void closeContainer(PipelineId pipeline, long containerId) throws IOException {
    byte[] command = ContainerCommand.newBuilder().setCloseContainer(CloseContainer.newBuilder()
        .setContainerId(containerId)).setToken(access.forContainer(containerId, AccessMode.ACCESS_WRITE)).build()
        .toByteArray();
    ByteBuffer message = ByteBuffer.allocate(4 + command.length).putInt(command.length).put(command).flip();
    RaftClientRequest request = RaftClientRequest.newBuilder().setClientId(clientId).setServerId(me)
        .setGroupId(groupIdOf(pipeline)).setCallId(callIds.incrementAndGet())
        .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(message)))
        .setType(RaftClientRequest.writeRequestType()).build();
    try {
      check(server.submitClientRequestAsync(request).get(TRANSFER_TIMEOUT_MS, TimeUnit.MILLISECONDS),
          "close container " + containerId);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while closing container " + containerId, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("cannot close container " + containerId + ": " + e, e);
    }
    LOG.info("{}: closed container {} through pipeline {}", nodeName, containerId, groupIdOf(pipeline).getUuid());
  }

  /** A report of every group this node hosts: role, leader, RaftLog directory. */
  public List<PipelineReport> reports() {
    List<PipelineReport> reports = new ArrayList<>();
    for (RaftGroupId groupId : groupIds()) {
      try {
        RaftServer.Division division = server.getDivision(groupId);
        DivisionInfo info = division.getInfo();
        PipelineReport.Builder report = PipelineReport.newBuilder()
            .setPipelineId(PipelineId.newBuilder().setId(Uuids.toProto(groupId.getUuid())))
            .setRole(roleOf(info.getCurrentRole())).setTerm(info.getCurrentTerm())
            .setLogDir(logDirOf(division).toString());
        if (info.getLeaderId() != null) {
          report.setLeader(Uuids.toProto(UUID.fromString(info.getLeaderId().toString())));
        }
        reports.add(report.build());
      } catch (IOException | IllegalStateException e) {
        // The group is going away, or still starting (Ratis has no role or storage for it yet): next time.
        LOG.debug("{}: group {} not reportable now: {}", nodeName, groupId, e.toString());
      }
    }
    return reports;
  }

  /** Groups per RaftLog directory. */
  public Map<Path, Integer> groupsPerLogDir(List<PipelineReport> reports) {
    Map<Path, Integer> counts = new HashMap<>();
    logDirs.forEach(d -> counts.put(d, 0));
    reports.forEach(r -> counts.merge(Path.of(r.getLogDir()), 1, Integer::sum));
    return counts;
  }

  private List<RaftGroupId> groupIds() {
    List<RaftGroupId> ids = new ArrayList<>();
    server.getGroupIds().forEach(ids::add);
    return ids;
  }

  private static Path logDirOf(RaftServer.Division division) {
    File groupDir = division.getRaftStorage().getStorageDir().getRoot();
    return groupDir.toPath().getParent();
  }

  private static String ratisAddress(DatanodeDetails member) {
    return DatanodeAddresses.of(member, PortName.RATIS).toString();
  }

  static RaftGroupId groupIdOf(PipelineId pipeline) {
    return RaftGroupId.valueOf(Uuids.fromProto(pipeline.getId()));
  }

  /** Ratis's role of this member; unspecified while the group is still starting (Ratis reports none yet). */
  private static RaftRole roleOf(RaftPeerRole role) {
    if (role == null) {
      return RaftRole.RAFT_ROLE_UNSPECIFIED;
    }
    switch (role) {
      case LEADER: return RaftRole.LEADER;
      case FOLLOWER: return RaftRole.FOLLOWER;
      case CANDIDATE: return RaftRole.CANDIDATE;
      default: return RaftRole.RAFT_ROLE_UNSPECIFIED;
    }
  }

  private static void check(RaftClientReply reply, String what) throws IOException {
    if (!reply.isSuccess()) {
      throw new IOException("cannot " + what + ": " + reply.getException());
    }
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    if (inProcess != null) {
      InProcessServers.removeRaft(inProcess);
    }
    if (server != null) {
      try {
        server.close();
      } catch (IOException e) {
        LOG.warn("{}: error closing the Ratis server: {}", nodeName, e.toString());
      }
    }
    if (chunkWriters != null) {
      Threads.shutdown(chunkWriters, java.time.Duration.ofSeconds(5));
    }
    lifeCycle.closeEnds();
  }
}
