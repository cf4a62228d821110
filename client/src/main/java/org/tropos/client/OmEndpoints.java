package org.tropos.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tropos.client.internal.OmClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.om.GetOmRoleResponse;

/**
 * The OMs {@link TroposClient} calls, as its configuration names them (an OM service's, in order, or the one OM),
 * and how it reaches them: one client following their leader, or each OM on its own when asking for roles.
 */
final class OmEndpoints {
  private final List<HostPort> addresses;
  private final String user;
  private final TransportSecurity transport;

  OmEndpoints(Configuration conf, String user, TransportSecurity transport) {
    this.addresses = OmService.from(conf).map(service -> service.nodes().stream().map(OmService.Node::rpc)
        .toList()).orElseGet(() -> List.of(ScmAddresses.omService(conf)));
    this.user = user;
    this.transport = transport;
  }

  List<HostPort> addresses() {
    return addresses;
  }

  /** A client of all the OMs, following their leader; with {@code followerReads}, reads go to each in turn. */
  OmClient connect(boolean followerReads) {
    return new OmClient(addresses, user, followerReads, transport);
  }

  /** Each OM's role, asked of it alone; one that cannot be reached is put in {@code unreachable} instead. */
  Map<HostPort, GetOmRoleResponse> roles(Map<HostPort, OmException> unreachable) {
    Map<HostPort, GetOmRoleResponse> roles = new LinkedHashMap<>();
    for (HostPort address : addresses) {
      try (OmClient one = new OmClient(List.of(address), user, false, transport)) {
        roles.put(address, one.getOmRole());
      } catch (OmException e) {
        unreachable.put(address, e);
      }
    }
    return roles;
  }
}
