package org.tropos.tools.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.ConfigLoader;
import org.tropos.common.conf.Configuration;
import picocli.CommandLine.Option;

/** The {@code --conf DIR} option, shared by every command that reads configuration. */
public final class ConfigOptions {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigOptions.class);

  @Option(names = "--conf", paramLabel = "DIR",
      description = "Directory with ozone-site.xml (default: $OZONE_CONF_DIR, else ./conf).")
  private Path confDir;

  @Option(names = {"-D", "--set"}, paramLabel = "KEY=VALUE",
      description = "Set a configuration key, over ozone-site.xml (repeatable).")
  private Map<String, String> overrides = new LinkedHashMap<>();

  /** Loads and validates a daemon's configuration, logging its non-default values; throws ConfigException. */
  public Configuration loadForDaemon() {
    return load(new ConfigLoader());
  }

  /** Loads and validates a client's configuration (only warnings are logged); throws ConfigException. */
  public Configuration loadForClient() {
    return load(new ConfigLoader(LOG::warn));
  }

  private Configuration load(ConfigLoader loader) {
    return loader.load(ConfigLoader.resolveConfDir(confDir, System.getenv()), overrides);
  }
}
