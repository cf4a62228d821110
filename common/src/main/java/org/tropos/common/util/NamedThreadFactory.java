package org.tropos.common.util;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place main code creates threads. Names follow {@code <node>-<component>-<role>-<n>} so thread dumps
 * read well; an uncaught exception is logged once with the thread's name.
 */
public final class NamedThreadFactory implements ThreadFactory {
  private static final Logger LOG = LoggerFactory.getLogger(NamedThreadFactory.class);

  private final String prefix;
  private final boolean daemon;
  private final AtomicInteger counter = new AtomicInteger();

  public NamedThreadFactory(String prefix, boolean daemon) {
    this.prefix = prefix;
    this.daemon = daemon;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + "-" + counter.incrementAndGet());
    thread.setDaemon(daemon);
    thread.setUncaughtExceptionHandler((t, e) -> LOG.error("{}: thread died", t.getName(), e));
    return thread;
  }
}
