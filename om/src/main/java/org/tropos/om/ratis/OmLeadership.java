package org.tropos.om.ratis;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.tropos.common.net.OmService;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.rpc.OmException;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.rpc.Leadership;
import org.tropos.proto.om.GetOmRoleResponse;
import org.tropos.proto.om.OmResult;

/**
 * An HA OM's leadership, read from its Raft member. It serves only as leader, and in a new term only once its
 * database holds every entry committed before (it then took its first request of the term): from that moment
 * its reads are current and it takes the term's own range of object ids. A follower answers NOT_LEADER with the
 * leader's client address, so that the client goes there next. Every call first checks that this OM holds its
 * leader lease ({@link RaftMember#holdsLease}): a leader cut off from its followers believes it leads until Ratis
 * steps it down (up to the longest election timeout), and meanwhile another OM may have been elected and taken
 * writes, so without the lease it could answer reads from an old state.
 *
 * <p>Thread-safe.
 */
final class OmLeadership implements Leadership {
  private static final Duration TRANSFER_TIMEOUT = Duration.ofSeconds(20);
  /** How long a follower's read waits for the leader's commit index and its own apply up to it. */
  private static final Duration FOLLOWER_READ_TIMEOUT = Duration.ofSeconds(3);

  private final RaftMember member;
  private final String self;
  private final Map<String, String> clientAddresses;
  private final ObjectIds ids;
  private final boolean followerReads;
  private final Runnable followerRead;
  /** The term this OM has started serving in (its object ids taken), 0 for none yet. */
  private long servingTerm;

  /**
   * @param followerReads whether this OM answers read calls as a follower too
   * @param followerRead told of each read call answered as a follower
   */
  OmLeadership(RaftMember member, OmService service, String self, ObjectIds ids, boolean followerReads,
      Runnable followerRead) {
    this.member = member;
    this.self = self;
    this.clientAddresses = service.nodes().stream().collect(Collectors.toMap(OmService.Node::id,
        n -> n.rpc().toString()));
    this.ids = ids;
    this.followerReads = followerReads;
    this.followerRead = followerRead;
  }

  @Override
  public void require() throws OmException {
    RaftServer.Division division;
    try {
      division = member.division();
    } catch (IOException e) {
      throw new OmException(OmResult.OM_NOT_READY, "OM " + self + " has no Raft member running: " + e.getMessage());
    }
    DivisionInfo info = division.getInfo();
    if (!info.isLeader()) {
      RaftPeerId leader = info.getLeaderId();
      String hint = leader == null ? "" : clientAddresses.getOrDefault(leader.toString(), "");
      throw OmException.notLeader("OM " + self + " is not the leader" + (hint.isEmpty() ? " (none known yet)"
          : "; the leader is " + leader + " at " + hint), hint);
    }
    startServing(division, info.getCurrentTerm());
    confirmLeads();
  }

  /** Starts serving in {@code term} once everything committed before is applied: takes the term's object ids. */
  private synchronized void startServing(RaftServer.Division division, long term) throws OmException {
    if (term == servingTerm) {
      return;
    }
    DivisionInfo info = division.getInfo();
    long committed = division.getRaftLog().getLastCommittedIndex();
    if (!info.isLeaderReady() || info.getLastAppliedIndex() < committed) {
      throw OmException.notLeader("OM " + self + " has just become the leader and is applying the entries of"
          + " earlier terms: retry", "");
    }
    try {
      ids.startTerm(term);
    } catch (IOException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "cannot take the object ids of term " + term + ": "
          + e.getMessage());
    }
    servingTerm = term;
  }

  /**
   * A follower serving reads waits for Ratis's read index: the leader's commit index when the call arrived, applied
   * here. A leader serves as for any call.
   */
  @Override
  public void requireForRead() throws OmException {
    if (!followerReads || leads()) {
      require();
      return;
    }
    RaftClientReply reply;
    try {
      reply = member.readBarrier().get(FOLLOWER_READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OmException(OmResult.OM_NOT_READY, "interrupted while OM " + self + " caught up for a read");
    } catch (ExecutionException | TimeoutException e) {
      require(); // throws NOT_LEADER naming the leader, if one is known
      throw OmException.notLeader("OM " + self + " could not catch up with the leader for a read within "
          + FOLLOWER_READ_TIMEOUT.toMillis() + " ms: " + e, "");
    }
    if (!reply.isSuccess()) {
      require(); // as above
      throw OmException.notLeader("OM " + self + " could not catch up with the leader for a read: "
          + reply.getException(), "");
    }
    followerRead.run();
  }

  private void confirmLeads() throws OmException {
    boolean holds;
    try {
      holds = member.holdsLease();
    } catch (IOException e) {
      throw new OmException(OmResult.OM_NOT_READY, "OM " + self + " has no Raft member running: " + e.getMessage());
    }
    if (!holds) {
      throw OmException.notLeader("OM " + self + " has not heard from a majority of its group for "
          + member.lease().toMillis() + " ms and may no longer lead: try another OM", "");
    }
  }

  @Override
  public boolean leads() {
    try {
      return member.division().getInfo().isLeader();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public GetOmRoleResponse role() {
    GetOmRoleResponse.Builder role = GetOmRoleResponse.newBuilder().setNodeId(self);
    try {
      DivisionInfo info = member.division().getInfo();
      RaftPeerId leader = info.getLeaderId();
      return role.setRole(info.getCurrentRole().name()).setTerm(info.getCurrentTerm())
          .setLeaderId(leader == null ? "" : leader.toString()).setAppliedIndex(info.getLastAppliedIndex()).build();
    } catch (IOException e) {
      return role.setRole("STOPPED").build();
    }
  }

  @Override
  public void transferTo(String nodeId) throws OmException {
    if (!clientAddresses.containsKey(nodeId)) {
      throw new OmException(OmResult.INVALID_REQUEST, "no OM " + nodeId + " in this service: its OMs are "
          + clientAddresses.keySet());
    }
    try (RaftClient client = member.newClient()) {
      RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(nodeId),
          TRANSFER_TIMEOUT.toMillis());
      if (!reply.isSuccess()) {
        throw new OmException(OmResult.OM_NOT_READY, "the leadership did not move to " + nodeId + ": "
            + reply.getException());
      }
    } catch (IOException e) {
      throw new OmException(OmResult.OM_NOT_READY, "the leadership did not move to " + nodeId + ": "
          + e.getMessage());
    }
  }
}
