package org.tropos.tools.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.net.ScmService;

/**
 * The SCM HA service of a local cluster ({@code tropos local --ha}): three SCMs on loopback, their ports kept in
 * {@code scm-service.properties} ({@link LocalServicePorts}). With the standard ports the first SCM takes SCM's
 * usual ports (client 9860, datanodes 9861, blocks 9863, Raft 9894) and the others 100 and 200 above.
 */
final class LocalScmService {
  static final int NODES = 3;
  static final String SERVICE = "scmservice";
  private static final String FILE = "scm-service.properties";
  private static final String LOOPBACK = "127.0.0.1";

  private final LocalServicePorts ports;

  private LocalScmService(LocalServicePorts ports) {
    this.ports = ports;
  }

  /** The service of the cluster in {@code dataDir}: as stored there, else chosen from the base ports and stored. */
  static LocalScmService load(Path dataDir, int clientPort, int datanodePort, int blockPort, int ratisPort)
      throws IOException {
    Map<String, Integer> bases = new LinkedHashMap<>();
    bases.put("client.port", clientPort);
    bases.put("datanode.port", datanodePort);
    bases.put("block.port", blockPort);
    bases.put("ratis.port", ratisPort);
    return new LocalScmService(LocalServicePorts.load(dataDir.resolve(FILE), LocalServicePorts.nodeIds("scm", NODES),
        bases,
        "Written by tropos local --ha: the ports of the SCM service's nodes (kept across restarts)"));
  }

  static String nodeId(int i) {
    return "scm" + (i + 1);
  }

  ScmService service() {
    List<ScmService.Node> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      String id = nodeId(i);
      nodes.add(new ScmService.Node(id, LOOPBACK, ports.port(id, "client.port"), ports.port(id, "datanode.port"),
          ports.port(id, "block.port"), ports.port(id, "ratis.port")));
    }
    return new ScmService(SERVICE, nodes);
  }
}
