package org.tropos.common.ratis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;

/**
 * What each member of a replicated service's Raft group says of itself, asked on its Raft port: for a service
 * whose followers serve nothing else (SCM HA), this is how an operator sees who leads.
 */
public final class GroupRoles {
  private static final TimeDuration TIMEOUT = TimeDuration.valueOf(3, TimeUnit.SECONDS);

  private GroupRoles() {
  }

  /**
   * One member's answer.
   *
   * @param role LEADER, FOLLOWER, CANDIDATE, ...; UNREACHABLE when it did not answer ({@code error} says why)
   * @param term the leader's term; for others the term of the last entry in their log
   */
  public record MemberRole(String node, HostPort address, String role, long term, String leader, long applied,
      String error) {
  }

  /**
   * Asks every member of the group of service {@code serviceId} of {@code kind} ({@link RaftMember#group}), as
   * {@code transport} makes this process (in a secure cluster, TLS with a certificate of the cluster, trusting only
   * members with certificates of {@code memberRole}).
   */
  public static List<MemberRole> of(String kind, String serviceId, Map<String, HostPort> peers,
      TransportSecurity transport, ServiceRole memberRole) {
    RaftGroup group = RaftMember.group(kind, serviceId, peers);
    RaftProperties properties = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TIMEOUT);
    List<MemberRole> roles = new ArrayList<>();
    try (RaftClient client = RaftMember.client(group, properties, RetryPolicies.noRetry(),
        RaftTls.client(transport, memberRole))) {
      for (Map.Entry<String, HostPort> peer : peers.entrySet()) {
        roles.add(ask(client, group, peer.getKey(), peer.getValue()));
      }
    } catch (IOException e) {
      // Closing a client that reached no one; the answers are in.
    }
    return roles;
  }

  private static MemberRole ask(RaftClient client, RaftGroup group, String node, HostPort address) {
    try {
      GroupInfoReply reply = client.getGroupManagementApi(RaftPeerId.valueOf(node)).info(group.getGroupId());
      RoleInfoProto role = reply.getRoleInfoProto();
      boolean leads = role.getRole() == RaftPeerRole.LEADER;
      String leader = leads ? node : role.hasFollowerInfo()
          ? role.getFollowerInfo().getLeaderInfo().getId().getId().toStringUtf8() : "";
      long term = leads ? role.getLeaderInfo().getTerm() : reply.getLogInfoProto().getLastEntry().getTerm();
      return new MemberRole(node, address, role.getRole().name(), term, leader,
          reply.getLogInfoProto().getApplied().getIndex(), "");
    } catch (IOException | RuntimeException e) {
      return new MemberRole(node, address, "UNREACHABLE", 0, "", 0, String.valueOf(e.getMessage()));
    }
  }
}
