package org.tropos.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.rules.ExternalResource;

/**
 * A JUnit 4 class rule over a cluster that test classes of one JVM share: the rule that found it stopped starts it
 * and stops it again. A suite of contract classes with the rule on it starts one cluster for all of them (a cluster
 * per class took longer to start than its tests ran); a class run alone still gets a cluster of its own.
 */
final class SharedClusterRule extends ExternalResource {
  /** Starts the shared cluster unless it runs; whether it did. */
  interface Start {
    boolean startUnlessRunning() throws Exception;
  }

  /** Stops the shared cluster. */
  interface Stop {
    void stop() throws IOException;
  }

  private final Start start;
  private final Stop stop;
  private boolean started;

  SharedClusterRule(Start start, Stop stop) {
    this.start = start;
    this.stop = stop;
  }

  @Override
  protected void before() throws Exception {
    started = start.startUnlessRunning();
  }

  @Override
  protected void after() {
    if (!started) {
      return;
    }
    started = false;
    try {
      stop.stop();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
