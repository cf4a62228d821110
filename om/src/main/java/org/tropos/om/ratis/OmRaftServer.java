package org.tropos.om.ratis;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.RatisPassThrough;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.om.db.OmDb;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.rpc.Leadership;

/**
 * This OM's member of its service's Raft group (one group per OM service, a peer per configured node): a
 * {@link RaftMember} whose {@link OmStateMachine} applies write sets to this OM's database.
 */
public final class OmRaftServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OmRaftServer.class);
  private static final String KIND = "om";

  private final RaftMember member;
  private final OmService service;
  private final String self;
  private final boolean followerReads;

  /** @param transport how the OMs of the group speak to each other: mutual TLS when the cluster runs secure */
  public OmRaftServer(OmHaConfig ha, OmDb db, TransportSecurity transport) throws IOException {
    this.service = ha.service();
    this.self = ha.self().id();
    this.followerReads = ha.followerReads();
    this.member = new RaftMember(KIND, service.id(), peers(service), self, ha.ratisDir(), new OmStateMachine(db),
        properties -> settings(ha, properties), transport, ServiceRole.OM);
    if (!ha.ratisProperties().isEmpty()) {
      LOG.info("OM {}: Ratis settings from {}raft.*: {}", self, RatisPassThrough.OM, ha.ratisProperties());
    }
  }

  /**
   * An OM's own Ratis settings, over those of every replicated service ({@link RaftMember#properties}), and then
   * the operator's {@code ozone.om.ratis.raft.*} keys, which win.
   */
  static void settings(OmHaConfig ha, RaftProperties properties) {
    ha.snapshots().apply(properties);
    if (ha.followerReads()) {
      RaftMember.linearizableReads(properties);
    }
    ha.ratisProperties().forEach(properties::set);
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

  /**
   * When this OM may serve clients: as its group's leader, caught up; {@code ids} are started in its terms. With
   * follower reads on it answers read calls as a follower too, telling {@code followerRead} of each.
   */
  public Leadership leadership(ObjectIds ids, Runnable followerRead) {
    return new OmLeadership(member, service, self, ids, followerReads, followerRead);
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
