package org.tropos.common.net;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;

/**
 * An OM HA service as configured with Ozone's keys: {@code ozone.om.service.ids}, {@code ozone.om.nodes.<id>} and,
 * per node, {@code ozone.om.address.<id>.<node>} and {@code ozone.om.ratis.port[.<id>.<node>]}. Servers use it to
 * form the Raft group, clients to find the next OM to try.
 *
 * @param id the service id
 * @param nodes its OMs, in the order configured
 */
public record OmService(String id, List<Node> nodes) {
  /** One OM of the service: where clients call it and where its Raft peers do. */
  public record Node(String id, HostPort rpc, HostPort ratis) {
  }

  public OmService {
    nodes = List.copyOf(nodes);
  }

  /** The configured service, or empty for a single OM (no {@code ozone.om.service.ids}). */
  public static Optional<OmService> from(Configuration conf) {
    List<String> ids = conf.get(OmKeys.SERVICE_IDS);
    if (ids.isEmpty()) {
      return Optional.empty();
    }
    if (ids.size() > 1) {
      throw new ConfigException(OmKeys.SERVICE_IDS.name() + " names " + ids.size() + " services " + ids
          + "; a Tropos cluster has one OM service");
    }
    String service = ids.get(0);
    List<String> nodeIds = conf.get(OmKeys.NODES, service);
    if (nodeIds.isEmpty()) {
      throw new ConfigException(OmKeys.NODES.name() + "." + service + " is not set: list the node ids of OM service "
          + service);
    }
    Set<String> seen = new HashSet<>();
    List<Node> nodes = new ArrayList<>();
    for (String node : nodeIds) {
      if (!seen.add(node)) {
        throw new ConfigException(OmKeys.NODES.name() + "." + service + " names node " + node + " twice");
      }
      String addressKey = OmKeys.ADDRESS.name() + "." + service + "." + node;
      String address = conf.raw(addressKey);
      if (address == null || address.isBlank()) {
        throw new ConfigException(addressKey + " is not set: every OM of service " + service + " needs an address");
      }
      HostPort rpc = HostPort.parse(address, conf.get(OmKeys.PORT), addressKey);
      int ratisPort = conf.get(OmKeys.RATIS_PORT, service + "." + node);
      nodes.add(new Node(node, rpc, new HostPort(rpc.host(), ratisPort)));
    }
    return Optional.of(new OmService(service, nodes));
  }

  /** Ozone's keys that describe this service ({@link #from} reads them back): for tools that make one up. */
  public Map<String, String> toKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put(OmKeys.SERVICE_IDS.name(), id);
    keys.put(OmKeys.NODES.name() + "." + id, String.join(",", nodeIds()));
    for (Node node : nodes) {
      keys.put(OmKeys.ADDRESS.name() + "." + id + "." + node.id(), node.rpc().toString());
      keys.put(OmKeys.RATIS_PORT.name() + "." + id + "." + node.id(), Integer.toString(node.ratis().port()));
    }
    return keys;
  }

  /**
   * The node this process is: {@code ozone.om.node.id} if set, else the one node whose host {@code isLocalHost}
   * accepts (several OMs on one host, as in tests, must name theirs).
   */
  public Node local(Configuration conf, Predicate<String> isLocalHost) {
    String named = conf.get(OmKeys.NODE_ID);
    if (!named.isEmpty()) {
      return nodes.stream().filter(n -> n.id().equals(named)).findFirst().orElseThrow(() -> new ConfigException(
          OmKeys.NODE_ID.name() + " is " + named + ", not one of the nodes of OM service " + id + ": " + nodeIds()));
    }
    List<Node> local = nodes.stream().filter(n -> isLocalHost.test(n.rpc().host())).toList();
    if (local.size() != 1) {
      throw new ConfigException((local.isEmpty() ? "none" : "several") + " of the OMs of service " + id + " "
          + nodeIds() + " have an address of this host: set " + OmKeys.NODE_ID.name());
    }
    return local.get(0);
  }

  private List<String> nodeIds() {
    return nodes.stream().map(Node::id).toList();
  }
}
