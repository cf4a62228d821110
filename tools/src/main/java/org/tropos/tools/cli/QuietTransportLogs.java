package org.tropos.tools.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;

/**
 * Turns off the logs of the libraries under the client (gRPC, Netty, Ratis) while a client command runs, and turns
 * them back on when it ends. Their warnings come with stack traces (gRPC logs a failed name resolution with
 * 14 frames) and say nothing the command's own one-line error does not. Our own client's warnings stay on: they
 * are one sentence each and tell of recoveries (another replica, another pipeline) the command would hide.
 *
 * <p>Both back ends are covered: Log4j (SLF4J loggers, and java.util.logging once bin/tropos routes it into Log4j)
 * and the JDK's java.util.logging when nothing routes it (gRPC logs there, as in tests).
 *
 * <p>Log levels are process-wide, so this is too: the first of overlapping commands in one JVM (tests run many)
 * turns the logs off and the last one to end restores them. All state is guarded by {@link #LOCK}.
 */
public final class QuietTransportLogs implements AutoCloseable {
  /** Logger names (prefixes) turned off; Ratis's include its shaded gRPC and Netty. */
  static final List<String> LOGGERS = List.of("io.grpc", "io.netty", "org.apache.ratis");

  private static final Object LOCK = new Object();
  private static int open;
  /** Log4j loggers configured before: their own level; those we added are absent. */
  private static final Map<String, Level> LOG4J_LEVELS = new HashMap<>();
  /** java.util.logging loggers we turned off, with their level before (held here, as JUL keeps weak references). */
  private static final Map<java.util.logging.Logger, java.util.logging.Level> JUL_LEVELS = new HashMap<>();

  private boolean closed;

  private QuietTransportLogs() {
  }

  /** Turns the libraries' logs off until the returned object is closed. */
  public static QuietTransportLogs start() {
    synchronized (LOCK) {
      if (open++ == 0) {
        quietLog4j();
        quietJdkLogging();
      }
    }
    return new QuietTransportLogs();
  }

  @Override
  public void close() {
    synchronized (LOCK) {
      if (closed) {
        return;
      }
      closed = true;
      if (--open == 0) {
        restoreLog4j();
        JUL_LEVELS.forEach(java.util.logging.Logger::setLevel);
        JUL_LEVELS.clear();
      }
    }
  }

  /** Nothing to do when Log4j's API is served by another provider than Log4j Core (log4j-to-slf4j, say). */
  private static void quietLog4j() {
    if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
      return;
    }
    Configuration config = context.getConfiguration();
    for (String name : LOGGERS) {
      LoggerConfig configured = config.getLoggers().get(name);
      if (configured != null) {
        LOG4J_LEVELS.put(name, configured.getExplicitLevel());
        configured.setLevel(Level.OFF);
      } else {
        config.addLogger(name, new LoggerConfig(name, Level.OFF, true));
      }
    }
    context.updateLoggers();
  }

  private static void restoreLog4j() {
    if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
      return;
    }
    Configuration config = context.getConfiguration();
    for (String name : LOGGERS) {
      if (LOG4J_LEVELS.containsKey(name)) {
        LoggerConfig configured = config.getLoggers().get(name);
        if (configured != null) {
          configured.setLevel(LOG4J_LEVELS.get(name));
        }
      } else {
        config.removeLogger(name);
      }
    }
    LOG4J_LEVELS.clear();
    context.updateLoggers();
  }

  /** Only when java.util.logging is the JDK's own: routed into Log4j, its levels are Log4j's. */
  private static void quietJdkLogging() {
    if (java.util.logging.LogManager.getLogManager().getClass() != java.util.logging.LogManager.class) {
      return;
    }
    for (String name : LOGGERS) {
      java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
      JUL_LEVELS.put(logger, logger.getLevel());
      logger.setLevel(java.util.logging.Level.OFF);
    }
  }
}
