package org.tropos.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;

/**
 * A daemon's HTTP status port (ARCHITECTURE.md, "Observability"): {@code /prom} (Prometheus text format),
 * {@code /health}. The JDK's own HTTP server on one small bounded pool: a few scrapes a minute need no more.
 */
public final class StatusServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final int THREADS = 2;
  private static final int QUEUE = 64;

  private final String name;
  private final HostPort bind;
  private final Supplier<String> metrics;
  private final LifeCycle lifeCycle;
  private HttpServer server;
  private ExecutorService pool;

  /** @param metrics the daemon's metrics in Prometheus text format */
  public StatusServer(String name, HostPort bind, Supplier<String> metrics) {
    this.name = name;
    this.bind = bind;
    this.metrics = metrics;
    this.lifeCycle = new LifeCycle(name);
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    try {
      server = HttpServer.create(new InetSocketAddress(bind.host(), bind.port()), 0);
    } catch (IOException e) {
      throw new IOException(name + " cannot listen on " + bind + ": " + e.getMessage(), e);
    }
    pool = Threads.boundedPool(name, THREADS, QUEUE);
    server.setExecutor(pool);
    server.createContext("/prom", exchange -> respond(exchange, "text/plain; version=0.0.4", metrics.get()));
    server.createContext("/health", exchange -> respond(exchange, "text/plain", "OK\n"));
    server.start();
    lifeCycle.startEnds();
    LOG.info("{}: status on http://{}/prom", name, new HostPort(bind.host(), port()));
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void respond(HttpExchange exchange, String type, String body) throws IOException {
    try (exchange) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    if (server != null) {
      server.stop(0);
    }
    if (pool != null) {
      Threads.shutdown(pool, java.time.Duration.ofSeconds(5));
    }
    lifeCycle.closeEnds();
  }
}
