package org.tropos.common.util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closes components in the order given, each in its own try, so one failing step does not skip the rest. */
public final class Closer {
  private static final Logger LOG = LoggerFactory.getLogger(Closer.class);

  private Closer() {
  }

  /** Closes each non-null step (pass them in reverse start order); failures are logged with {@code owner}. */
  public static void closeAll(String owner, AutoCloseable... steps) {
    for (AutoCloseable step : steps) {
      if (step == null) {
        continue;
      }
      try {
        step.close();
      } catch (Exception e) {
        LOG.warn("{}: error while stopping: {}", owner, e.toString());
      }
    }
  }
}
