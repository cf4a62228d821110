package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.tropos.tools.Tropos;

/** Runs a {@code tropos} command in this JVM, as a user would type it. */
final class TroposCli {
  private TroposCli() {
  }

  /** What the command printed, once it exited with {@code expectedExit} (else a failure showing its output). */
  static String run(int expectedExit, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), args);
    assertEquals(expectedExit, code, String.join(" ", args) + ": " + out + err);
    return out.toString();
  }
}
