package org.tropos.tools.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;

/**
 * The OM HA service of a local cluster ({@code tropos local --ha}): three OMs on loopback, their ports kept in
 * {@code om-service.properties} ({@link LocalServicePorts}). With the standard ports the first OM takes the OM's
 * usual port (9862, its Raft 9872) and the others 100 and 200 above.
 */
final class LocalOmService {
  static final int NODES = 3;
  static final String SERVICE = "omservice";
  private static final String FILE = "om-service.properties";
  private static final String LOOPBACK = "127.0.0.1";

  private final LocalServicePorts ports;

  private LocalOmService(LocalServicePorts ports) {
    this.ports = ports;
  }

  /** The service of the cluster in {@code dataDir}: as stored there, else chosen from the base ports and stored. */
  static LocalOmService load(Path dataDir, int basePort, int baseRatisPort) throws IOException {
    Map<String, Integer> bases = new LinkedHashMap<>();
    bases.put("port", basePort);
    bases.put("ratis.port", baseRatisPort);
    return new LocalOmService(LocalServicePorts.load(dataDir.resolve(FILE), LocalServicePorts.nodeIds("om", NODES),
        bases,
        "Written by tropos local --ha: the ports of the OM service's nodes (kept across restarts)"));
  }

  static String nodeId(int i) {
    return "om" + (i + 1);
  }

  HostPort address(int i) {
    return new HostPort(LOOPBACK, ports.port(nodeId(i), "port"));
  }

  /** Ozone's keys describing the service, for its OMs and its clients. */
  Map<String, String> keys() {
    List<OmService.Node> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      nodes.add(new OmService.Node(nodeId(i), address(i), new HostPort(LOOPBACK, ports.port(nodeId(i),
          "ratis.port"))));
    }
    return new OmService(SERVICE, nodes).toKeys();
  }
}
