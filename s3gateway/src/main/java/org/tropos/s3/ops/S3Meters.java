package org.tropos.s3.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.tropos.common.metrics.Latency;
import org.tropos.proto.console.GatewaySummary;
import org.tropos.proto.console.OperationCount;

/**
 * The gateway's requests by operation and status ({@code s3_requests_seconds}), and the bytes of request and
 * response bodies ({@code s3_received_bytes_total}, {@code s3_sent_bytes_total}); summed by operation for SCM's
 * console.
 */
public final class S3Meters {
  private static final String REQUESTS = "s3.requests";

  private final MeterRegistry registry;
  private final Meter.MeterProvider<Timer> requests;
  private final Counter bytesIn;
  private final Counter bytesOut;

  public S3Meters(MeterRegistry registry) {
    this.registry = registry;
    this.requests = Latency.timer(REQUESTS, "S3 requests from their headers' arrival to their response, by"
        + " operation and status.").withRegistry(registry);
    this.bytesIn = Counter.builder("s3.received").baseUnit("bytes").description("Bytes of request bodies (object"
        + " data as sent, before aws-chunked decoding where the client gave no decoded length).").register(registry);
    this.bytesOut = Counter.builder("s3.sent").baseUnit("bytes").description("Bytes of response bodies.")
        .register(registry);
  }

  void record(String operation, int status, long nanos, long in, long out) {
    requests.withTags("operation", operation, "status", Integer.toString(status)).record(nanos, TimeUnit.NANOSECONDS);
    bytesIn.increment(in);
    bytesOut.increment(out);
  }

  /** Requests and errors (4xx, 5xx) by operation since the gateway started, and bytes in and out. */
  public GatewaySummary summary(long uptimeMs) {
    Map<String, long[]> byOperation = new TreeMap<>();
    for (Timer timer : registry.find(REQUESTS).timers()) {
      long[] counts = byOperation.computeIfAbsent(timer.getId().getTag("operation"), o -> new long[2]);
      counts[0] += timer.count();
      if (timer.getId().getTag("status").compareTo("400") >= 0) {
        counts[1] += timer.count();
      }
    }
    GatewaySummary.Builder summary = GatewaySummary.newBuilder().setBytesIn((long) bytesIn.count())
        .setBytesOut((long) bytesOut.count()).setUptimeMs(uptimeMs);
    byOperation.forEach((operation, counts) -> summary.addOperations(OperationCount.newBuilder()
        .setOperation(operation).setRequests(counts[0]).setErrors(counts[1])));
    return summary.build();
  }
}
