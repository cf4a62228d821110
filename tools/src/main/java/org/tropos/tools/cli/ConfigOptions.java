package org.tropos.tools.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tropos.common.conf.ConfigLoader;
import org.tropos.common.conf.Configuration;
import picocli.CommandLine.Option;

/** The {@code --conf DIR} option, shared by every command that reads configuration. */
public final class ConfigOptions {
  @Option(names = "--conf", paramLabel = "DIR",
      description = "Directory with ozone-site.xml (default: $OZONE_CONF_DIR, else ./conf).")
  private Path confDir;

  @Option(names = {"-D", "--set"}, paramLabel = "KEY=VALUE",
      description = "Set a configuration key, over ozone-site.xml (repeatable).")
  private Map<String, String> overrides = new LinkedHashMap<>();

  /** Loads and validates the configuration; throws ConfigException naming a bad key. */
  public Configuration load() {
    return new ConfigLoader().load(ConfigLoader.resolveConfDir(confDir, System.getenv()), overrides);
  }
}
