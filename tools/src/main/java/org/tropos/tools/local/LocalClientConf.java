package org.tropos.tools.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.tropos.common.conf.ConfigLoader;

/**
 * The client settings a {@code tropos local} writes beside its data ({@code DATA_DIR/client-conf/ozone-site.xml}):
 * where its services are and, as it runs secure, the CA to trust and the certificate its user acts with. A CLI
 * command run in the directory a default {@code tropos local} was started in, with neither {@code --conf} nor
 * {@code $OZONE_CONF_DIR}, reads them over {@code conf/}, so the README's commands work against it unchanged.
 */
public final class LocalClientConf {
  /** Where {@code tropos local} keeps its data when not told otherwise. */
  public static final Path DEFAULT_DATA_DIR = Path.of(".tropos-local");

  private LocalClientConf() {
  }

  /** The settings file of the local cluster kept in {@code dataDir}. */
  public static Path file(Path dataDir) {
    return dataDir.toAbsolutePath().resolve("client-conf").resolve(ConfigLoader.SITE_FILE);
  }

  /** Writes the settings of the cluster in {@code dataDir} afresh (a restart may have changed them). */
  public static Path write(Path dataDir, Map<String, String> keys) throws IOException {
    Path file = file(dataDir);
    StringBuilder xml = new StringBuilder("<configuration>\n");
    new TreeMap<>(keys).forEach((key, value) -> xml.append("  <property><name>").append(key)
        .append("</name><value>").append(value).append("</value></property>\n"));
    Files.createDirectories(file.getParent());
    Files.writeString(file, xml.append("</configuration>\n"));
    return file;
  }

  /** {@link #forCommand(Path, Map, Path)} in the working directory. */
  public static Map<String, String> forCommand(Path explicitConfDir, Map<String, String> env) {
    return forCommand(explicitConfDir, env, Path.of(""));
  }

  /**
   * The settings a CLI command run in {@code workingDir} takes from a default local cluster started there: none
   * when it was given a configuration directory ({@code explicitConfDir}, {@code $OZONE_CONF_DIR}) or no such
   * cluster wrote any.
   */
  public static Map<String, String> forCommand(Path explicitConfDir, Map<String, String> env, Path workingDir) {
    Path file = file(workingDir.resolve(DEFAULT_DATA_DIR));
    if (ConfigLoader.namedConfDir(explicitConfDir, env).isPresent() || !Files.isRegularFile(file)) {
      return Map.of();
    }
    return ConfigLoader.readSiteXml(file);
  }
}
