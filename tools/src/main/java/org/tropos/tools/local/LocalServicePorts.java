package org.tropos.tools.local;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The ports of the nodes of a local HA service ({@code tropos local --ha}), chosen once and kept in a properties
 * file in the data directory (key {@code <node>.<port name>}), because a Raft group remembers its peers'
 * addresses: a restart must find the same ones. From a base port, node i takes the base plus 100 × i; from port
 * 0 (tests) each takes a free port ({@link KeptPorts}).
 */
final class LocalServicePorts {
  private static final int STEP = 100;

  private final Properties ports;

  private LocalServicePorts(Properties ports) {
    this.ports = ports;
  }

  /**
   * The ports stored in {@code file}, else chosen and stored.
   *
   * @param basePorts per port name, the first node's port (0 = free ports)
   */
  static LocalServicePorts load(Path file, List<String> nodes, Map<String, Integer> basePorts, String comment)
      throws IOException {
    Properties stored = new Properties();
    if (Files.exists(file)) {
      try (Reader in = Files.newBufferedReader(file)) {
        stored.load(in);
      }
      return new LocalServicePorts(stored);
    }
    for (int i = 0; i < nodes.size(); i++) {
      for (Map.Entry<String, Integer> base : basePorts.entrySet()) {
        int port = base.getValue() == 0 ? KeptPorts.pick() : base.getValue() + i * STEP;
        stored.setProperty(nodes.get(i) + "." + base.getKey(), Integer.toString(port));
      }
    }
    try (Writer out = Files.newBufferedWriter(file)) {
      stored.store(out, comment);
    }
    return new LocalServicePorts(stored);
  }

  /** Node ids {@code <prefix>1} to {@code <prefix><count>}. */
  static List<String> nodeIds(String prefix, int count) {
    return java.util.stream.IntStream.rangeClosed(1, count).mapToObj(i -> prefix + i).toList();
  }

  int port(String node, String name) {
    String value = ports.getProperty(node + "." + name);
    if (value == null) {
      throw new IllegalStateException("no port " + name + " of " + node + " stored for the local HA service");
    }
    return Integer.parseInt(value);
  }
}
