package org.tropos.common.net;

import java.nio.file.Files;
import java.nio.file.Path;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;

/** Builds the {@link RackResolver} that {@code net.topology.node.switch.mapping.impl} names. */
public final class RackResolvers {
  public static final String TABLE_MAPPING = "org.apache.hadoop.net.TableMapping";
  public static final String SCRIPT_MAPPING = "org.apache.hadoop.net.ScriptBasedMapping";

  private RackResolvers() {
  }

  public static RackResolver fromConfig(Configuration conf) {
    String impl = conf.get(ScmKeys.TOPOLOGY_MAPPING_IMPL).trim();
    switch (impl) {
      case TABLE_MAPPING:
        return TableRackResolver.load(requiredFile(conf.get(ScmKeys.TOPOLOGY_TABLE_FILE),
            ScmKeys.TOPOLOGY_TABLE_FILE.name(), impl));
      case SCRIPT_MAPPING:
        String script = conf.get(ScmKeys.TOPOLOGY_SCRIPT_FILE);
        return script.isBlank() ? (host, ip) -> RackResolver.DEFAULT_RACK
            : new ScriptRackResolver(requiredFile(script, ScmKeys.TOPOLOGY_SCRIPT_FILE.name(), impl));
      default:
        throw new ConfigException("Invalid value '" + impl + "' for " + ScmKeys.TOPOLOGY_MAPPING_IMPL.name()
            + ": expected " + TABLE_MAPPING + " or " + SCRIPT_MAPPING);
    }
  }

  private static Path requiredFile(String value, String key, String impl) {
    if (value.isBlank()) {
      throw new ConfigException(key + " must be set when " + ScmKeys.TOPOLOGY_MAPPING_IMPL.name() + " is " + impl);
    }
    Path file = Path.of(value);
    if (!Files.isReadable(file)) {
      throw new ConfigException("Invalid value '" + value + "' for " + key + ": no readable file there");
    }
    return file;
  }
}
