package org.tropos.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;

/**
 * A daemon's HTTP status port (ARCHITECTURE.md, "Observability"): {@code /prom} (its meters in Prometheus text
 * format), {@code /health} (the process runs), {@code /ready} (it can serve: 503 with the reason when not), a
 * small home page, and the JSON routes and static pages of the web console. The JDK's own HTTP server on one small
 * bounded pool: scrapes and a console's polls need no more. Routes are added before {@link #start()}.
 *
 * <p>In a secure cluster the port also listens over HTTPS ({@link #https}); the routes {@link #guard}ed (the web
 * console) are then served there alone, and only to a client certificate of the cluster that {@link #viewers}
 * admits, while {@code /prom}, {@code /health} and {@code /ready} stay open on both.
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
  private final Set<String> guarded = new HashSet<>();
  private Predicate<CertificateSubject> viewers = subject -> true;
  private final LifeCycle lifeCycle;
  private HostPort httpsBind;
  private SSLContext httpsContext;
  /** Whether the port listens over plain HTTP (not under HTTPS_ONLY). */
  private boolean http = true;
  /** Whether the guarded routes need a client certificate over HTTPS (a secure cluster). */
  private boolean certificatesRequired;
  private HttpServer server;
  private HttpsServer httpsServer;
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

  /**
   * A daemon's status port where {@code ports} says: over HTTPS too (or alone), with {@code transport}'s
   * certificate, where {@code ozone.http.policy} opens it.
   */
  public static StatusServer of(String name, StatusPorts ports, TransportSecurity transport, DaemonMetrics metrics,
      Readiness readiness) throws IOException {
    StatusServer server = new StatusServer(name, ports.http(), metrics, readiness);
    if (ports.policy().https()) {
      server.https(ports.https(), transport.httpsServerContext());
    }
    server.http = ports.policy().http();
    server.certificatesRequired = transport.tls();
    return server;
  }

  /**
   * Listens over HTTPS too, on {@code bind} with {@code context} (this daemon's certificate; clients' certificates
   * of the cluster trusted): the {@link #guard}ed routes are served there alone, to a client certificate.
   */
  public StatusServer https(HostPort bind, SSLContext context) {
    this.httpsBind = bind;
    this.httpsContext = context;
    this.certificatesRequired = true;
    return this;
  }

  /**
   * Routes that need a client certificate of the cluster once the port listens over {@link #https}: each a path,
   * or a prefix ending in {@code /} for every path below it.
   */
  public StatusServer guard(String... paths) {
    guarded.addAll(List.of(paths));
    return this;
  }

  /**
   * Whose client certificates the guarded routes answer in a secure cluster (by default any of the cluster's): the
   * web console's, administrators'.
   */
  public StatusServer viewers(Predicate<CertificateSubject> admitted) {
    this.viewers = admitted;
    return this;
  }

  /** A link on the home page (to the cluster's web console, say). */
  public StatusServer link(String text, String url) {
    links.put(text, url);
    return this;
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    List<HttpServer> listening = new ArrayList<>();
    try {
      if (http) {
        server = HttpServer.create(new InetSocketAddress(bind.host(), bind.port()), 0);
        listening.add(server);
      }
      if (httpsBind != null) {
        httpsServer = HttpsServer.create(new InetSocketAddress(httpsBind.host(), httpsBind.port()), 0);
        httpsServer.setHttpsConfigurator(new AskingForCertificates(httpsContext));
        listening.add(httpsServer);
      }
    } catch (IOException e) {
      close();
      throw new IOException(name + " cannot listen on " + (http ? bind : "") + (httpsBind == null ? "" : " "
          + httpsBind) + ": " + e.getMessage(), e);
    }
    pool = Threads.boundedPool(name, THREADS, QUEUE);
    for (HttpServer each : listening) {
      each.setExecutor(pool);
      each.createContext("/prom", exchange -> respond(exchange, 200, DaemonMetrics.CONTENT_TYPE, metrics.scrape()));
      each.createContext("/health", exchange -> respond(exchange, 200, TEXT, "OK\n"));
      each.createContext("/ready", this::ready);
      json.forEach((prefix, route) -> each.createContext(prefix, exchange -> {
        if (admitted(exchange)) {
          answer(exchange, prefix, route);
        }
      }));
      each.createContext("/", this::page);
      each.start();
    }
    lifeCycle.startEnds();
    LOG.info("{}: status (/prom, /health, /ready){}{}", name, http ? " on http://" + new HostPort(bind.host(),
        port()) + "/" : "", httpsPort().map(p -> ", HTTPS on port " + p).orElse(""));
  }

  /**
   * Whether the exchange may be served: a route not {@link #guard}ed always; a guarded one when the cluster is not
   * secure, else over HTTPS to a client certificate {@link #viewers} admits. Otherwise it is answered 403 here.
   */
  private boolean admitted(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    boolean isGuarded = guarded.stream().anyMatch(g -> g.endsWith("/") ? path.startsWith(g) : path.equals(g));
    if (!isGuarded || !certificatesRequired || exchange instanceof HttpsExchange https && admits(https)) {
      return true;
    }
    respond(exchange, 403, TEXT, exchange instanceof HttpsExchange ? "the console needs the client certificate of"
        + " a user it admits (an administrator's: tropos admin cert issue)\n" : "the console is served over HTTPS, to"
        + " a client certificate"
        + " of the cluster" + httpsPort().map(p -> ": port " + p).orElse(" (ozone.http.policy opens no HTTPS port)")
        + "\n");
    return false;
  }

  /** Whether the client showed a certificate of the cluster (the handshake verified it) that viewers admits. */
  private boolean admits(HttpsExchange exchange) {
    return CertificateSubject.ofPeer(exchange.getSSLSession()).filter(viewers).isPresent();
  }

  /** Asks each HTTPS client for a certificate without requiring one: {@code /prom} and the like stay open. */
  private static final class AskingForCertificates extends HttpsConfigurator {
    AskingForCertificates(SSLContext context) {
      super(context);
    }

    @Override
    public void configure(HttpsParameters parameters) {
      SSLParameters ssl = getSSLContext().getDefaultSSLParameters();
      ssl.setWantClientAuth(true);
      parameters.setSSLParameters(ssl);
    }
  }

  /** The HTTPS port, when the status port listens over HTTPS too. */
  public Optional<Integer> httpsPort() {
    return httpsServer == null ? Optional.empty() : Optional.of(httpsServer.getAddress().getPort());
  }

  /** The HTTP port; none under HTTPS_ONLY. */
  public int port() {
    if (server == null) {
      throw new IllegalStateException(name + " listens over HTTPS only (ozone.http.policy): no HTTP port");
    }
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
    if (page != null && path.equals("/") && certificatesRequired && !(exchange instanceof HttpsExchange)) {
      // The console's page replaces the home page over HTTPS; plain HTTP keeps the home page of open routes.
      page = null;
    }
    if (page != null) {
      if (!admitted(exchange)) {
        return;
      }
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
    if (httpsServer != null) {
      httpsServer.stop(0);
    }
    if (pool != null) {
      Threads.shutdown(pool, Duration.ofSeconds(5));
    }
    lifeCycle.closeEnds();
  }
}
