package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.tropos.tools.Tropos;

/** Runs a {@code tropos} command in this JVM, as a user would type it. */
final class TroposCli {
  private TroposCli() {
  }

  /** What the command printed, once it exited with {@code expectedExit} (else a failure showing its output). */
  static String run(int expectedExit, String... args) {
    return run(expectedExit, false, args);
  }

  /** What the command printed to its output and its error stream, once it exited with {@code expectedExit}. */
  static String runShowingErrors(int expectedExit, String... args) {
    return run(expectedExit, true, args);
  }

  private static String run(int expectedExit, boolean withErrors, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), args);
    assertEquals(expectedExit, code, String.join(" ", args) + ": " + out + err);
    return withErrors ? out.toString() + err : out.toString();
  }

  /** A conf directory {@code dir/conf} whose ozone-site.xml sets {@code keys}, for a command's {@code --conf}. */
  static String confDir(Path dir, Map<String, String> keys) throws IOException {
    StringBuilder site = new StringBuilder("<configuration>\n");
    keys.forEach((key, value) -> site.append("<property><name>").append(key).append("</name><value>").append(value)
        .append("</value></property>\n"));
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(conf.resolve("ozone-site.xml"), site.append("</configuration>\n"));
    return conf.toString();
  }
}
