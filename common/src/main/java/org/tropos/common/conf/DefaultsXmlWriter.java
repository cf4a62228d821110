package org.tropos.common.conf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Generates {@code ozone-default.xml} from the key declarations at build time (see common/pom.xml): the
 * reference of every key Tropos reads, its default and what it does.
 */
public final class DefaultsXmlWriter {
  private DefaultsXmlWriter() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: DefaultsXmlWriter OUTPUT_FILE");
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, render(), StandardCharsets.UTF_8);
  }

  static String render() {
    StringBuilder xml = new StringBuilder()
        .append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<!-- Generated from the ConfigKey declarations in org.tropos.common.conf: do not edit. -->\n")
        .append("<!-- Override any of these in ozone-site.xml in the conf directory. -->\n")
        .append(passThroughNote())
        .append("<configuration>\n");
    for (ConfigKey<?> key : KnownKeys.all()) {
      String deprecated = KnownKeys.deprecatedNamesOf(key);
      xml.append("  <property>\n")
          .append("    <name>").append(escape(key.name())).append("</name>\n")
          .append("    <value>").append(escape(key.defaultValue())).append("</value>\n")
          .append("    <description>").append(escape(key.description()))
          .append(deprecated.isEmpty() ? "" : " Deprecated name: " + escape(deprecated) + ".")
          .append("</description>\n")
          .append("  </property>\n");
    }
    return xml.append("</configuration>\n").toString();
  }

  /** Ratis's own keys are not declared here: they pass through by prefix ({@link RatisPassThrough}). */
  static String passThroughNote() {
    return "<!-- Ratis settings pass through, set over Tropos's own choices: "
        + String.join(", ", RatisPassThrough.PREFIXES.stream().map(p -> p + "raft.<ratis key>").toList())
        + " (the datanodes' pipelines, an OM HA service's Raft group, an SCM HA service's Raft group) set"
        + " raft.<ratis key> of that Ratis server. -->\n";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
