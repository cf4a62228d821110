package org.tropos.tools.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.ConfigLoader;
import org.tropos.common.conf.Configuration;
import org.tropos.tools.local.LocalClientConf;
import picocli.CommandLine.Option;

/** The {@code --conf DIR} option, shared by every command that reads configuration. */
public final class ConfigOptions {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigOptions.class);

  @Option(names = "--conf", paramLabel = "DIR",
      description = "Directory with ozone-site.xml (default: $OZONE_CONF_DIR, else ./conf and, for a client command,"
          + " the settings of the tropos local started in this directory).")
  private Path confDir;

  @Option(names = {"-D", "--set"}, paramLabel = "KEY=VALUE",
      description = "Set a configuration key, over ozone-site.xml (repeatable).")
  private Map<String, String> overrides = new LinkedHashMap<>();

  /** Loads and validates a daemon's configuration, logging its non-default values; throws ConfigException. */
  public Configuration loadForDaemon() {
    return load(new ConfigLoader());
  }

  /**
   * Loads and validates a client's configuration (only warnings are logged); without a configuration directory,
   * the settings of a {@code tropos local} started in the working directory come over {@code conf/}
   * ({@link LocalClientConf}). Throws ConfigException.
   */
  public Configuration loadForClient() {
    Map<String, String> settings = new LinkedHashMap<>(LocalClientConf.forCommand(confDir, System.getenv()));
    settings.putAll(overrides);
    return load(new ConfigLoader(LOG::warn), settings);
  }

  private Configuration load(ConfigLoader loader) {
    return load(loader, overrides);
  }

  private Configuration load(ConfigLoader loader, Map<String, String> settings) {
    return loader.load(ConfigLoader.resolveConfDir(confDir, System.getenv()), settings);
  }
}
