package org.tropos.tools.local;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;

/**
 * The OM HA service of a local cluster ({@code tropos local --ha}): three OMs on loopback. Their ports are chosen
 * once and kept in {@code om-service.properties} in the data directory, because the Raft group remembers its
 * peers' addresses: a restart must find the same ones. With the standard ports the first OM takes the OM's usual
 * port (9862, its Raft 9872) and the others 100 and 200 above; with port 0 (tests) free ports are taken.
 */
final class LocalOmService {
  static final int NODES = 3;
  static final String SERVICE = "omservice";
  private static final String FILE = "om-service.properties";
  private static final String LOOPBACK = "127.0.0.1";
  private static final int STEP = 100;

  private final int[] rpcPorts = new int[NODES];
  private final int[] ratisPorts = new int[NODES];

  private LocalOmService() {
  }

  /** The service of the cluster in {@code dataDir}: as stored there, else chosen from the base ports and stored. */
  static LocalOmService load(Path dataDir, int basePort, int baseRatisPort) throws IOException {
    LocalOmService service = new LocalOmService();
    Path file = dataDir.resolve(FILE);
    Properties stored = new Properties();
    if (Files.exists(file)) {
      try (Reader in = Files.newBufferedReader(file)) {
        stored.load(in);
      }
      for (int i = 0; i < NODES; i++) {
        service.rpcPorts[i] = Integer.parseInt(stored.getProperty(nodeId(i) + ".port"));
        service.ratisPorts[i] = Integer.parseInt(stored.getProperty(nodeId(i) + ".ratis.port"));
      }
      return service;
    }
    for (int i = 0; i < NODES; i++) {
      service.rpcPorts[i] = basePort == 0 ? freePort() : basePort + i * STEP;
      service.ratisPorts[i] = baseRatisPort == 0 ? freePort() : baseRatisPort + i * STEP;
      stored.setProperty(nodeId(i) + ".port", Integer.toString(service.rpcPorts[i]));
      stored.setProperty(nodeId(i) + ".ratis.port", Integer.toString(service.ratisPorts[i]));
    }
    try (Writer out = Files.newBufferedWriter(file)) {
      stored.store(out, "Written by tropos local --ha: the ports of the OM service's nodes (kept across restarts)");
    }
    return service;
  }

  static String nodeId(int i) {
    return "om" + (i + 1);
  }

  HostPort address(int i) {
    return new HostPort(LOOPBACK, rpcPorts[i]);
  }

  /** Ozone's keys describing the service, for its OMs and its clients. */
  Map<String, String> keys() {
    List<OmService.Node> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      nodes.add(new OmService.Node(nodeId(i), address(i), new HostPort(LOOPBACK, ratisPorts[i])));
    }
    return new OmService(SERVICE, nodes).toKeys();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
