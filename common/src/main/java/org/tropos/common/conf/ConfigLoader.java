package org.tropos.common.conf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Loads {@code ozone-site.xml} (Hadoop's format) from the conf directory over the declared defaults: maps
 * deprecated names to current ones with one warning each, warns about unknown {@code ozone.*}/{@code hdds.*}
 * keys, expands {@code ${name}} references, validates every value and logs the non-default ones once.
 */
public final class ConfigLoader {
  public static final String SITE_FILE = "ozone-site.xml";
  public static final String CONF_DIR_ENV = "OZONE_CONF_DIR";
  /** The system property in which the launcher (bin/tropos) names the installation's conf directory. */
  public static final String INSTALLED_CONF_DIR_PROPERTY = "tropos.conf.dir";
  private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}$\\s]+)}");
  private static final int MAX_EXPANSION_DEPTH = 20;

  private final Consumer<String> warnings;
  private final boolean logCustomValues;

  /** A loader for a daemon: warnings and the non-default values go to the log. */
  public ConfigLoader() {
    this(LOG::warn, true);
  }

  /**
   * @param warnings receives each warning once (tests collect them)
   * @param logCustomValues whether to log each non-default value (daemons do, command-line clients do not)
   */
  public ConfigLoader(Consumer<String> warnings, boolean logCustomValues) {
    this.warnings = warnings;
    this.logCustomValues = logCustomValues;
  }

  /** A loader that hands warnings to {@code warnings} and logs nothing else. */
  public ConfigLoader(Consumer<String> warnings) {
    this(warnings, false);
  }

  /**
   * The conf directory: {@code explicit} (--conf), else $OZONE_CONF_DIR, else the installation's (the launcher
   * names it in {@link #INSTALLED_CONF_DIR_PROPERTY}), else {@code conf/}.
   */
  public static Path resolveConfDir(Path explicit, Map<String, String> env) {
    return namedConfDir(explicit, env).orElseGet(() -> {
      String installed = System.getProperty(INSTALLED_CONF_DIR_PROPERTY, "");
      return installed.isBlank() ? Path.of("conf") : Path.of(installed);
    });
  }

  /** The conf directory the user named: {@code explicit} (--conf), else $OZONE_CONF_DIR; none otherwise. */
  public static Optional<Path> namedConfDir(Path explicit, Map<String, String> env) {
    if (explicit != null) {
      return Optional.of(explicit);
    }
    String fromEnv = env.get(CONF_DIR_ENV);
    return fromEnv == null || fromEnv.isBlank() ? Optional.empty() : Optional.of(Path.of(fromEnv));
  }

  /** Loads {@code confDir/ozone-site.xml}; a missing file means all defaults. */
  public Configuration load(Path confDir) {
    return load(confDir, Map.of());
  }

  /**
   * Loads {@code confDir/ozone-site.xml} with {@code overrides} (from the command line's {@code --set}) on top;
   * both go through the same alias mapping, warnings and validation.
   */
  public Configuration load(Path confDir, Map<String, String> overrides) {
    Path site = confDir.resolve(SITE_FILE);
    Map<String, String> raw = new LinkedHashMap<>(Files.isRegularFile(site) ? readSiteXml(site) : Map.of());
    overrides.forEach((name, value) -> {
      raw.remove(name);
      raw.put(name, value);
    });
    Configuration conf = new Configuration(expand(normalize(raw)));
    if (logCustomValues) {
      logCustomValues(conf);
    }
    return conf;
  }

  /** Maps deprecated names and warns about unknown ones; a current name wins over its alias. */
  Map<String, String> normalize(Map<String, String> raw) {
    Map<String, String> current = new LinkedHashMap<>();
    Map<String, String> fromAliases = new LinkedHashMap<>();
    raw.forEach((name, value) -> {
      String replacement = KnownKeys.replacementOf(name);
      if (replacement != null) {
        warnings.accept(name + " is deprecated; use " + replacement + " instead (value '" + value + "' applied to "
            + replacement + (raw.containsKey(replacement) ? ", which is also set and wins" : "") + ")");
        fromAliases.put(replacement, value);
        return;
      }
      if (KnownKeys.get(name) == null && !RatisPassThrough.isPassedThrough(name)
          && (name.startsWith("ozone.") || name.startsWith("hdds."))) {
        warnings.accept("Unknown configuration key " + name + " is ignored (check its spelling)");
      }
      current.put(name, value);
    });
    fromAliases.forEach(current::putIfAbsent);
    return current;
  }

  private static Map<String, String> expand(Map<String, String> values) {
    Map<String, String> expanded = new LinkedHashMap<>();
    values.forEach((name, value) -> expanded.put(name, expandValue(name, value, values)));
    return expanded;
  }

  private static String expandValue(String name, String value, Map<String, String> values) {
    String result = value;
    for (int depth = 0; depth < MAX_EXPANSION_DEPTH; depth++) {
      Matcher m = VARIABLE.matcher(result);
      if (!m.find()) {
        return result;
      }
      StringBuilder out = new StringBuilder();
      do {
        m.appendReplacement(out, Matcher.quoteReplacement(lookup(name, m.group(1), values)));
      } while (m.find());
      m.appendTail(out);
      result = out.toString();
    }
    throw new ConfigException("Invalid value '" + value + "' for " + name + ": ${...} references nest deeper than "
        + MAX_EXPANSION_DEPTH + " (a cycle?)");
  }

  private static String lookup(String name, String variable, Map<String, String> values) {
    String value = values.get(variable);
    if (value == null && KnownKeys.get(variable) != null) {
      value = KnownKeys.get(variable).defaultValue();
    }
    if (value == null) {
      value = System.getProperty(variable);
    }
    if (value == null) {
      throw new ConfigException("Invalid value for " + name + ": ${" + variable + "} is not set");
    }
    return value;
  }

  private static void logCustomValues(Configuration conf) {
    conf.explicitValues().forEach((name, value) -> {
      ConfigKey<?> key = KnownKeys.get(name);
      if (key != null && !value.equals(key.defaultValue())) {
        LOG.info("{} = {} (custom)", name, value);
      }
    });
  }

  /** The properties an ozone-site.xml sets, as written (no alias mapping or validation yet). */
  public static Map<String, String> readSiteXml(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      NodeList properties = newDocumentBuilder().parse(in).getDocumentElement().getElementsByTagName("property");
      Map<String, String> values = new LinkedHashMap<>();
      for (int i = 0; i < properties.getLength(); i++) {
        Element property = (Element) properties.item(i);
        String name = childText(property, "name");
        String value = childText(property, "value");
        if (name == null || name.isBlank()) {
          throw new ConfigException(file + ": property #" + (i + 1) + " has no <name>");
        }
        values.put(name.trim(), value == null ? "" : value.trim());
      }
      return values;
    } catch (IOException | SAXException | ParserConfigurationException e) {
      throw new ConfigException("Cannot read " + file + ": " + e.getMessage());
    }
  }

  private static DocumentBuilder newDocumentBuilder() throws ParserConfigurationException {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setExpandEntityReferences(false);
    return factory.newDocumentBuilder();
  }

  private static String childText(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
  }
}
