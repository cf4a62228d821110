package org.tropos.scm.ratis;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.RatisPassThrough;
import org.tropos.common.net.HostPort;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.ratis.RaftSnapshotPolicy;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.scm.db.ScmDb;

/**
 * This SCM's member of its service's Raft group: a {@link RaftMember} whose {@link ScmStateMachine} applies the
 * rows the leader writes to this SCM's database. {@link #rowLog} is how the leader's database writes: each change
 * goes through the group and returns once it is applied here.
 */
public final class ScmRaftServer implements AutoCloseable {
  /** The kind of service in its Raft group's id ({@link RaftMember#group}). */
  public static final String KIND = "scm";
  private static final Logger LOG = LoggerFactory.getLogger(ScmRaftServer.class);
  /** How long a change may wait to be committed: a few elections' worth. */
  private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(15);

  private final RaftMember member;

  /**
   * @param peers the service's SCMs: node id to Raft address
   * @param self this SCM's node id
   * @param snapshots when this SCM snapshots its database and purges its Raft log
   * @param ratisProperties Ratis keys an operator set ({@code ozone.scm.ratis.raft.*}), applied over Tropos's own
   * @param transport mutual TLS between the SCMs in a secure cluster, which admits only SCM certificates: no one
   *     else may append to, vote in or submit to the group
   */
  public ScmRaftServer(String serviceId, Map<String, HostPort> peers, String self, Path storageDir, ScmDb db,
      RaftSnapshotPolicy snapshots, Map<String, String> ratisProperties, TransportSecurity transport)
      throws IOException {
    this.member = new RaftMember(KIND, serviceId, peers, self, storageDir, new ScmStateMachine(db),
        properties -> settings(snapshots, ratisProperties, properties), transport, ServiceRole.SCM);
    if (!ratisProperties.isEmpty()) {
      LOG.info("SCM {}: Ratis settings from {}raft.*: {}", self, RatisPassThrough.SCM, ratisProperties);
    }
  }

  /**
   * An SCM's own Ratis settings, over those of every replicated service ({@link RaftMember#properties}), and then
   * the operator's {@code ozone.scm.ratis.raft.*} keys, which win.
   */
  static void settings(RaftSnapshotPolicy snapshots, Map<String, String> ratisProperties,
      RaftProperties properties) {
    snapshots.apply(properties);
    ratisProperties.forEach(properties::set);
  }

  public void start() throws IOException {
    member.start();
  }

  public RaftMember member() {
    return member;
  }

  /** Writes through the group from this SCM, which must lead it: refused with {@link NotLeaderException} if not. */
  public ScmDb.RowLog rowLog() {
    RaftMember.Submitter submitter = member.submitter();
    return changes -> {
      RaftClientReply reply;
      try {
        reply = submitter.submit(Message.valueOf(UnsafeByteOperations.unsafeWrap(changes.toByteArray())))
            .get(COMMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the SCMs' Raft group committed a change", e);
      } catch (ExecutionException | TimeoutException e) {
        throw new IOException("the SCMs' Raft group did not commit a change: " + e, e);
      }
      if (!reply.isSuccess()) {
        NotLeaderException notLeader = reply.getNotLeaderException();
        throw notLeader != null ? notLeader : new IOException("the SCMs' Raft group did not commit a change: "
            + reply.getException(), reply.getException());
      }
    };
  }

  @Override
  public void close() throws IOException {
    member.close();
  }
}
