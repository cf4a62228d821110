package org.tropos.common.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.HostPort;

/** A status port on loopback, asked as Prometheus, a load balancer and the console would. */
class StatusServerTest {
  private final DaemonMetrics metrics = new DaemonMetrics();
  private final AtomicReference<String> notReady = new AtomicReference<>("still starting");
  private final HttpClient http = HttpClient.newHttpClient();
  private StatusServer server;

  @BeforeEach
  void start() throws Exception {
    server = new StatusServer("test-http", new HostPort("127.0.0.1", 0), metrics,
        () -> Optional.ofNullable(notReady.get()))
        .json("/api/things", (rest, query) -> {
          if (rest.equals("/missing")) {
            throw new JsonRoute.NotFound("no thing missing");
          }
          if (rest.equals("/bad")) {
            throw new IllegalArgumentException("no such state " + query.get("state"));
          }
          if (rest.equals("/broken")) {
            throw new IllegalStateException("the \"store\" is closed");
          }
          return "{\"rest\": \"" + rest + "\", \"q\": \"" + query.get("q") + "\"}";
        })
        .link("Console", "http://console.example/");
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
    metrics.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void promServesTheRegistrysMetersAndTheJvmsInTextFormat() throws Exception {
    Counter.builder("test.requests").register(metrics.registry()).increment(3);
    HttpResponse<String> prom = get("/prom");
    assertEquals(200, prom.statusCode());
    assertTrue(prom.headers().firstValue("content-type").orElseThrow().startsWith("text/plain; version=0.0.4"));
    assertTrue(prom.body().contains("# TYPE test_requests_total counter\ntest_requests_total 3.0"), prom.body());
    assertTrue(prom.body().contains("jvm_memory_used_bytes{area=\"heap\""), prom.body());
    assertTrue(prom.body().contains("process_uptime_seconds"), prom.body());
  }

  @Test
  void readyTellsWhyNotUntilTheDaemonCanServeWhileHealthSaysItRuns() throws Exception {
    assertEquals(200, get("/health").statusCode());
    HttpResponse<String> ready = get("/ready");
    assertEquals(503, ready.statusCode());
    assertEquals("NOT READY: still starting\n", ready.body());
    notReady.set(null);
    assertEquals(200, get("/ready").statusCode());
  }

  @Test
  void jsonRoutesAnswerTheirPathsAndMapFailuresToStatusCodes() throws Exception {
    HttpResponse<String> thing = get("/api/things/7?q=a%20b");
    assertEquals(200, thing.statusCode());
    assertEquals("{\"rest\": \"/7\", \"q\": \"a b\"}", thing.body());
    assertEquals(404, get("/api/things/missing").statusCode());
    assertEquals(400, get("/api/things/bad?state=WOBBLY").statusCode());
    HttpResponse<String> broken = get("/api/things/broken");
    assertEquals(503, broken.statusCode());
    assertEquals("{\"error\": \"the \\\"store\\\" is closed\"}", broken.body());
  }

  @Test
  void theHomePageLinksItsPagesAndAnythingElseIsNotFound() throws Exception {
    HttpResponse<String> home = get("/");
    assertEquals(200, home.statusCode());
    assertTrue(home.body().contains("<a href=\"http://console.example/\">Console</a>"), home.body());
    assertTrue(home.body().contains("<a href=\"/prom\">"), home.body());
    assertEquals(404, get("/nothing-here").statusCode());
  }
}
