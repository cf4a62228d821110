package org.tropos.common.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A small on-disk record (datanode id, volume VERSION file) as Java properties with a {@code layoutVersion}.
 * A file written by a newer layout than this code knows is refused rather than misread.
 */
public final class VersionedProperties {
  public static final String LAYOUT_VERSION = "layoutVersion";

  private VersionedProperties() {
  }

  /** Reads {@code file} if it exists; fails if its layout is newer than {@code maxLayout}. */
  public static Optional<Map<String, String>> read(Path file, int maxLayout) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    int layout = parseLayout(file, p.getProperty(LAYOUT_VERSION));
    if (layout > maxLayout) {
      throw new IOException(file + " has layoutVersion " + layout + "; this version of Tropos reads up to "
          + maxLayout);
    }
    Map<String, String> values = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> values.put(k, p.getProperty(k)));
    return Optional.of(values);
  }

  /** Writes {@code values} with {@code layout} atomically. */
  public static void write(Path file, int layout, Map<String, String> values, String comment) throws IOException {
    Properties p = new Properties();
    p.putAll(values);
    p.setProperty(LAYOUT_VERSION, Integer.toString(layout));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.store(out, comment);
    AtomicFiles.write(file, out.toByteArray());
  }

  private static int parseLayout(Path file, String text) throws IOException {
    try {
      return Integer.parseInt(text == null ? "" : text.trim());
    } catch (NumberFormatException e) {
      throw new IOException(file + " has no valid " + LAYOUT_VERSION + " (found '" + text + "')");
    }
  }
}
