package org.tropos.common.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.ScmKeys;

/**
 * Hadoop's TableMapping: a file with one {@code host-or-ip /rack} pair per line ({@code #} starts a comment).
 * Nodes not listed go to {@link #DEFAULT_RACK}. The file is read once, when SCM starts.
 */
public final class TableRackResolver implements RackResolver {
  private final Map<String, String> racks;

  TableRackResolver(Map<String, String> racks) {
    this.racks = Map.copyOf(racks);
  }

  public static TableRackResolver load(Path file) {
    try {
      return new TableRackResolver(parse(Files.readAllLines(file), file));
    } catch (IOException e) {
      throw new ConfigException("Cannot read " + ScmKeys.TOPOLOGY_TABLE_FILE.name() + " file " + file + ": " + e);
    }
  }

  static Map<String, String> parse(List<String> lines, Path file) {
    Map<String, String> racks = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).replaceFirst("#.*", "").trim();
      if (line.isEmpty()) {
        continue;
      }
      String[] parts = line.split("\\s+");
      if (parts.length != 2 || !parts[1].startsWith("/")) {
        throw new ConfigException("Invalid line " + (i + 1) + " in topology table " + file + ": '" + lines.get(i)
            + "' (expected 'host-or-ip /rack')");
      }
      racks.put(parts[0], parts[1]);
    }
    return racks;
  }

  @Override
  public String resolve(String hostName, String ipAddress) {
    String rack = racks.get(hostName);
    if (rack == null) {
      rack = racks.get(ipAddress);
    }
    return rack == null ? DEFAULT_RACK : rack;
  }
}
