package org.tropos.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;

/**
 * A daemon's HTTP status port (ARCHITECTURE.md, "Observability"): {@code /prom} (its meters in Prometheus text
 * format), {@code /health} (the process runs), {@code /ready} (it can serve: 503 with the reason when not), a
 * small home page, and the JSON routes and static pages of the web console. The JDK's own HTTP server on one small
 * bounded pool: scrapes and a console's polls need no more. Routes are added before {@link #start()}.
 */
public final class StatusServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final int THREADS = 2;
  private static final int QUEUE = 64;
  private static final String JSON = "application/json; charset=utf-8";
  private static final String TEXT = "text/plain; charset=utf-8";

  private final String name;
  private final HostPort bind;
  private final DaemonMetrics metrics;
  private final Readiness readiness;
  private final Map<String, JsonRoute> json = new LinkedHashMap<>();
  private final Map<String, Page> pages = new LinkedHashMap<>();
  private final Map<String, String> links = new LinkedHashMap<>();
  private final LifeCycle lifeCycle;
  private HttpServer server;
  private ExecutorService pool;

  private record Page(byte[] body, String type) {
  }

  public StatusServer(String name, HostPort bind, DaemonMetrics metrics, Readiness readiness) {
    this.name = name;
    this.bind = bind;
    this.metrics = metrics;
    this.readiness = readiness;
    this.lifeCycle = new LifeCycle(name);
  }

  /** Answers {@code prefix} and every path below it with {@code route}'s JSON. */
  public StatusServer json(String prefix, JsonRoute route) {
    json.put(prefix, route);
    return this;
  }

  /** Serves a resource of this class loader at {@code path} ({@code "/"} replaces the home page). */
  public StatusServer page(String path, String resource, String type) {
    try (InputStream in = StatusServer.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      pages.put(path, new Page(in.readAllBytes(), type));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + resource, e);
    }
    return this;
  }

  /** A link on the home page (to the cluster's web console, say). */
  public StatusServer link(String text, String url) {
    links.put(text, url);
    return this;
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
    server.createContext("/prom", exchange -> respond(exchange, 200, DaemonMetrics.CONTENT_TYPE, metrics.scrape()));
    server.createContext("/health", exchange -> respond(exchange, 200, TEXT, "OK\n"));
    server.createContext("/ready", this::ready);
    json.forEach((prefix, route) -> server.createContext(prefix, exchange -> answer(exchange, prefix, route)));
    server.createContext("/", this::page);
    server.start();
    lifeCycle.startEnds();
    LOG.info("{}: status on http://{}/ (/prom, /health, /ready)", name, new HostPort(bind.host(), port()));
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void ready(HttpExchange exchange) throws IOException {
    Optional<String> why = readiness.whyNotReady();
    if (why.isEmpty()) {
      respond(exchange, 200, TEXT, "READY\n");
    } else {
      respond(exchange, 503, TEXT, "NOT READY: " + why.get() + "\n");
    }
  }

  private static void answer(HttpExchange exchange, String prefix, JsonRoute route) throws IOException {
    String rest = exchange.getRequestURI().getPath().substring(prefix.length());
    try {
      respond(exchange, 200, JSON, route.answer(rest, query(exchange.getRequestURI().getRawQuery())));
    } catch (JsonRoute.NotFound e) {
      respond(exchange, 404, JSON, error(e.getMessage()));
    } catch (IllegalArgumentException e) {
      respond(exchange, 400, JSON, error("bad request: " + e.getMessage()));
    } catch (Exception e) {
      respond(exchange, 503, JSON, error(e.getMessage() == null ? e.toString() : e.getMessage()));
    }
  }

  private void page(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    Page page = pages.get(path);
    if (page != null) {
      respond(exchange, 200, page.type(), page.body());
    } else if (path.equals("/")) {
      respond(exchange, 200, "text/html; charset=utf-8", home());
    } else {
      respond(exchange, 404, TEXT, "no page " + path + "\n");
    }
  }

  private String home() {
    StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(Html.escape(name)).append("</title></head><body><h1>").append(Html.escape(name)).append("</h1><ul>");
    Map<String, String> all = new LinkedHashMap<>(links);
    all.put("Metrics (Prometheus)", "/prom");
    all.put("Health", "/health");
    all.put("Readiness", "/ready");
    all.forEach((text, url) -> html.append("<li><a href=\"").append(Html.escape(url)).append("\">")
        .append(Html.escape(text)).append("</a></li>"));
    return html.append("</ul></body></html>\n").toString();
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      query.put(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return query;
  }

  private static String error(String message) {
    return "{\"error\": \"" + Html.jsonEscape(message) + "\"}";
  }

  private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
    respond(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void respond(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(status, head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
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
      Threads.shutdown(pool, Duration.ofSeconds(5));
    }
    lifeCycle.closeEnds();
  }
}
