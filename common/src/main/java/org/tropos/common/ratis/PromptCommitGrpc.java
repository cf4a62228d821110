package org.tropos.common.ratis;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.grpc.server.GrpcLogAppender;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.rpc.RpcFactory;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.leader.LogAppender;
import org.apache.ratis.server.raftlog.RaftLogIOException;

/**
 * Ratis's gRPC transport whose leader tells each follower of a new commit index as soon as it has one, even when
 * there is no new entry to carry it.
 *
 * <p>Ratis 3.3's log appender wakes when the commit index moves and sees that the follower is behind, but it builds
 * a request only out of entries, or a heartbeat once half the election timeout has passed. Without Ratis's metadata
 * entries (the commit index appended as an entry of its own after each commit) an idle group's followers would thus
 * learn of a commit up to half a second late: a client waiting until every replica has committed (ALL_COMMITTED)
 * waited that long, and a follower left leading after a crash did not know the last commits. Here the appender then
 * sends an empty append carrying the commit index instead, once per new commit index, and never while an append
 * is still unanswered (its reply wakes the appender again, and only then does the leader know which index the
 * follower can commit). Under load every append carries entries, so nothing more is sent.
 */
public final class PromptCommitGrpc implements RpcType {
  /** Makes the Ratis server built from these properties use this transport. */
  public static void use(RaftProperties properties) {
    RaftConfigKeys.Rpc.setType(properties, new PromptCommitGrpc());
  }

  /** The class name: Ratis creates the type from its name by reflection. */
  @Override
  public String name() {
    return PromptCommitGrpc.class.getName();
  }

  @Override
  public RpcFactory newFactory(Parameters parameters) {
    return new Factory(parameters);
  }

  private static final class Factory extends GrpcFactory {
    Factory(Parameters parameters) {
      super(parameters);
    }

    @Override
    public LogAppender newLogAppender(RaftServer.Division server, LeaderState state, FollowerInfo follower) {
      return new Appender(server, state, follower);
    }
  }

  /** The gRPC log appender of one follower, sending it commit indexes that no entry carries. */
  static final class Appender extends GrpcLogAppender {
    /** The highest commit index sent to the follower; only the appender's own thread builds requests. */
    private long commitSent = -1;

    Appender(RaftServer.Division server, LeaderState state, FollowerInfo follower) {
      super(server, state, follower);
    }

    @Override
    public AppendEntriesRequestProto newAppendEntriesRequest(long callId, boolean heartbeat)
        throws RaftLogIOException {
      AppendEntriesRequestProto request = super.newAppendEntriesRequest(callId, heartbeat);
      if (request == null && !hasAppendEntries()) {
        // An empty append tells the commit index only up to the follower's last acknowledged entry, and nothing
        // while an append is unanswered (the index it carries is then 0).
        AppendEntriesRequestProto commitOnly = super.newAppendEntriesRequest(callId, true);
        request = commitOnly.getLeaderCommit() > commitSent ? commitOnly : null;
      }
      if (request != null) {
        commitSent = Math.max(commitSent, request.getLeaderCommit());
      }
      return request;
    }
  }
}
