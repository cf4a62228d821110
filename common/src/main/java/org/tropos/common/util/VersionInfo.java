package org.tropos.common.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build, from {@code tropos-version.properties} (filtered by Maven at build time). */
public final class VersionInfo {
  private static final String VERSION = load();

  private VersionInfo() {
  }

  public static String version() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = VersionInfo.class.getResourceAsStream("/tropos-version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
