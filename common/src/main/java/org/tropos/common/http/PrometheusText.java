package org.tropos.common.http;

import java.util.Locale;
import java.util.Map;

/** Writes metrics in Prometheus text format (version 0.0.4): one HELP and TYPE header per metric, then samples. */
public final class PrometheusText {
  private final StringBuilder out = new StringBuilder();

  public PrometheusText counter(String name, String help, long value) {
    header(name, help, "counter");
    out.append(name).append(' ').append(value).append('\n');
    return this;
  }

  public PrometheusText gauge(String name, String help, double value) {
    header(name, help, "gauge");
    out.append(name).append(' ').append(format(value)).append('\n');
    return this;
  }

  /** A gauge with one label, a sample per label value. */
  public PrometheusText gauge(String name, String help, String label, Map<String, ? extends Number> values) {
    header(name, help, "gauge");
    values.forEach((value, sample) -> out.append(name).append('{').append(label).append("=\"").append(value)
        .append("\"} ").append(format(sample.doubleValue())).append('\n'));
    return this;
  }

  /** Appends lines already in the format (a summary written elsewhere). */
  public PrometheusText raw(String lines) {
    out.append(lines);
    return this;
  }

  private void header(String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static String format(double value) {
    return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%s", value);
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
