package org.tropos.common.audit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's audit log: one line per operation it serves, to the logger {@code tropos.audit.<daemon>} (the
 * logging configuration sends it to a rolling file of its own, {@code <daemon>-audit.log}). A line reads
 * {@code user=alice | auth=CERTIFICATE | ip=10.0.0.5 | op=DeleteKey | resource={volume=v, bucket=b, key=k} |
 * result=PERMISSION_DENIED | us=812}: who (empty for a caller with no identity) and how it was proven, from where,
 * what, on what, how it ended and how long it took in microseconds. Successes are logged at INFO, failures (a
 * refusal included) at WARN, so a configuration that keeps only warnings still keeps every refusal.
 *
 * <p>Thread-safe.
 */
public final class AuditLog {
  private final Logger log;

  private AuditLog(Logger log) {
    this.log = log;
  }

  public static AuditLog of(String daemon) {
    return new AuditLog(LoggerFactory.getLogger("tropos.audit." + daemon));
  }

  /** One operation served. */
  public record Entry(String user, String authentication, String from, String operation, String resource,
      String result, long micros) {
    boolean succeeded() {
      return result.equals(OK);
    }
  }

  public static final String OK = "OK";

  /** Whether lines are written at all (the cost of gathering an entry is then worth paying). */
  public boolean enabled() {
    return log.isWarnEnabled();
  }

  public void record(Entry entry) {
    if (entry.succeeded() ? log.isInfoEnabled() : log.isWarnEnabled()) {
      String line = "user=" + clean(entry.user()) + " | auth=" + clean(entry.authentication()) + " | ip="
          + clean(entry.from()) + " | op=" + clean(entry.operation()) + " | resource=" + clean(entry.resource())
          + " | result=" + clean(entry.result()) + " | us=" + entry.micros();
      if (entry.succeeded()) {
        log.info(line);
      } else {
        log.warn(line);
      }
    }
  }

  /** A value kept on its line and its field: line breaks and the separator are replaced. */
  static String clean(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      out.append(c == '|' ? '/' : Character.isISOControl(c) ? ' ' : c);
    }
    return out.toString();
  }
}
