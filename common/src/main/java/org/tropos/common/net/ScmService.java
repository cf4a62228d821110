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
import org.tropos.common.conf.ScmKeys;

/**
 * An SCM HA service as configured with Ozone's keys: {@code ozone.scm.service.ids}, {@code ozone.scm.nodes.<id>}
 * and, per node, {@code ozone.scm.address.<id>.<node>} (its host) with the ports of its services
 * ({@code ozone.scm.client.port}, {@code .datanode.port}, {@code .block.client.port}, {@code .ratis.port}, each
 * also per node as {@code <key>.<id>.<node>}). Servers use it to form the Raft group; datanodes heartbeat to every
 * node, clients find the leader among them.
 *
 * @param id the service id
 * @param nodes its SCMs, in the order configured
 */
public record ScmService(String id, List<Node> nodes) {
  /** One SCM of the service and where its services listen. */
  public record Node(String id, String host, int clientPort, int datanodePort, int blockPort, int ratisPort) {
    public HostPort client() {
      return new HostPort(host, clientPort);
    }

    public HostPort datanode() {
      return new HostPort(host, datanodePort);
    }

    public HostPort block() {
      return new HostPort(host, blockPort);
    }

    public HostPort ratis() {
      return new HostPort(host, ratisPort);
    }
  }

  public ScmService {
    nodes = List.copyOf(nodes);
  }

  /** The configured service, or empty for a single SCM (no {@code ozone.scm.service.ids}). */
  public static Optional<ScmService> from(Configuration conf) {
    List<String> ids = conf.get(ScmKeys.SERVICE_IDS);
    if (ids.isEmpty()) {
      return Optional.empty();
    }
    if (ids.size() > 1) {
      throw new ConfigException(ScmKeys.SERVICE_IDS.name() + " names " + ids.size() + " services " + ids
          + "; a Tropos cluster has one SCM service");
    }
    String service = ids.get(0);
    List<String> nodeIds = conf.get(ScmKeys.NODES, service);
    if (nodeIds.isEmpty()) {
      throw new ConfigException(ScmKeys.NODES.name() + "." + service + " is not set: list the node ids of SCM"
          + " service " + service);
    }
    Set<String> seen = new HashSet<>();
    List<Node> nodes = new ArrayList<>();
    for (String node : nodeIds) {
      if (!seen.add(node)) {
        throw new ConfigException(ScmKeys.NODES.name() + "." + service + " names node " + node + " twice");
      }
      String suffix = service + "." + node;
      String host = conf.get(ScmKeys.ADDRESS, suffix);
      if (host.isBlank()) {
        throw new ConfigException(ScmKeys.ADDRESS.name() + "." + suffix + " is not set: every SCM of service "
            + service + " needs a host");
      }
      nodes.add(new Node(node, host.trim(), conf.get(ScmKeys.CLIENT_PORT, suffix),
          conf.get(ScmKeys.DATANODE_PORT, suffix), conf.get(ScmKeys.BLOCK_PORT, suffix),
          conf.get(ScmKeys.RATIS_PORT, suffix)));
    }
    return Optional.of(new ScmService(service, nodes));
  }

  /** Ozone's keys that describe this service ({@link #from} reads them back): for tools that make one up. */
  public Map<String, String> toKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put(ScmKeys.SERVICE_IDS.name(), id);
    keys.put(ScmKeys.NODES.name() + "." + id, String.join(",", nodeIds()));
    for (Node node : nodes) {
      String suffix = "." + id + "." + node.id();
      keys.put(ScmKeys.ADDRESS.name() + suffix, node.host());
      keys.put(ScmKeys.CLIENT_PORT.name() + suffix, Integer.toString(node.clientPort()));
      keys.put(ScmKeys.DATANODE_PORT.name() + suffix, Integer.toString(node.datanodePort()));
      keys.put(ScmKeys.BLOCK_PORT.name() + suffix, Integer.toString(node.blockPort()));
      keys.put(ScmKeys.RATIS_PORT.name() + suffix, Integer.toString(node.ratisPort()));
    }
    return keys;
  }

  /**
   * The node this process is: {@code ozone.scm.node.id} if set, else the one node whose host {@code isLocalHost}
   * accepts (several SCMs on one host, as in tests, must name theirs).
   */
  public Node local(Configuration conf, Predicate<String> isLocalHost) {
    String named = conf.get(ScmKeys.NODE_ID);
    if (!named.isEmpty()) {
      return nodes.stream().filter(n -> n.id().equals(named)).findFirst().orElseThrow(() -> new ConfigException(
          ScmKeys.NODE_ID.name() + " is " + named + ", not one of the nodes of SCM service " + id + ": "
              + nodeIds()));
    }
    List<Node> local = nodes.stream().filter(n -> isLocalHost.test(n.host())).toList();
    if (local.size() != 1) {
      throw new ConfigException((local.isEmpty() ? "none" : "several") + " of the SCMs of service " + id + " "
          + nodeIds() + " have a host name of this host: set " + ScmKeys.NODE_ID.name());
    }
    return local.get(0);
  }

  /** The Raft peers: node id to Raft address. */
  public Map<String, HostPort> raftPeers() {
    Map<String, HostPort> peers = new LinkedHashMap<>();
    nodes.forEach(n -> peers.put(n.id(), n.ratis()));
    return peers;
  }

  private List<String> nodeIds() {
    return nodes.stream().map(Node::id).toList();
  }
}
