package org.tropos.tools.cli;

import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.LogManager;
import org.tropos.common.util.NamedThreadFactory;

/** Keeps a started daemon running until the JVM is asked to stop (Ctrl-C, SIGTERM), then closes it cleanly. */
final class Daemons {
  private Daemons() {
  }

  static int runUntilStopped(AutoCloseable daemon) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new NamedThreadFactory("tropos-shutdown", false).newThread(() -> {
      try {
        daemon.close();
      } catch (Exception e) {
        System.err.println("tropos: error while stopping: " + e);
      } finally {
        // Log4j's own shutdown hook is off (log4j2.component.properties) so the daemon's last words are kept.
        LogManager.shutdown();
        stopped.countDown();
      }
    }));
    stopped.await();
    return ExitCodes.OK;
  }
}
