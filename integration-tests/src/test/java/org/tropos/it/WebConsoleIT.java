package org.tropos.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.tropos.client.TroposClient;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.om.S3Secret;
import org.tropos.tools.local.KeptPorts;
import org.tropos.tools.local.LocalCluster;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * Every daemon's status port ({@code /prom}, {@code /health}, {@code /ready}), the Grafana dashboard's metrics, and
 * SCM's web console in a real headless browser (Debian's Chromium through its ChromeDriver, as CI installs them):
 * the pages show the live cluster's numbers and, left open, a datanode stopped under them turning STALE, then DEAD.
 * Last, the gateway is not ready while the OM is down.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebConsoleIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String KILLED = LocalCluster.datanodeAddress(3);

  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static int omHttp;
  private static int gatewayHttp;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    omHttp = KeptPorts.pick();
    gatewayHttp = KeptPorts.pick();
    // Fixed ports: SCM's console finds the OM's and the gateway's status ports in the configuration.
    Map<String, String> settings = new HashMap<>(S3Cluster.SETTINGS);
    settings.put("ozone.om.http-address", "127.0.0.1:" + omHttp);
    settings.put("ozone.s3g.webadmin.http-address", "127.0.0.1:" + gatewayHttp);
    mini = new MiniCluster(dir, 3, 1, settings);
    mini.awaitAllHealthy();
    mini.awaitOpenPipelines(1);
    S3Secret secret;
    try (TroposClient tropos = TroposClient.create(mini.clientConfig())) {
      secret = tropos.getS3Secret("console-user", true);
    }
    // The gateway of the mini cluster itself, whose counts SCM's console shows.
    S3Client client = S3Client.builder().endpointOverride(URI.create(mini.cluster().s3Endpoint()))
        .region(Region.US_EAST_1).serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("console-user",
            secret.getSecret()))).build();
    client.createBucket(b -> b.bucket("console-bucket"));
    for (int i = 0; i < 3; i++) {
      String key = "k" + i;
      client.putObject(p -> p.bucket("console-bucket").key(key), RequestBody.fromString("value of " + key));
    }
    client.getObject(g -> g.bucket("console-bucket").key("k0")).readAllBytes();
    client.close();
  }

  @AfterAll
  static void stop() {
    if (mini != null) {
      mini.close();
    }
  }

  @Test
  @Order(1)
  void everyDaemonAnswersMetricsHealthAndReadiness() throws Exception {
    for (String daemon : statusPorts().values()) {
      assertEquals(200, get(daemon + "/health").statusCode(), daemon);
      HttpResponse<String> ready = get(daemon + "/ready");
      assertEquals(200, ready.statusCode(), daemon + ": " + ready.body());
      HttpResponse<String> prom = get(daemon + "/prom");
      assertEquals(200, prom.statusCode(), daemon);
      assertThat(prom.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
      assertThat(prom.body()).contains("jvm_memory_used_bytes", "jvm_threads_live_threads");
    }
    Map<String, String> ports = statusPorts();
    assertThat(scrape(ports.get("scm"))).contains("scm_datanodes{state=\"HEALTHY\"} 3.0",
        "scm_containers_health{health=\"MISSING\"}", "scm_replication_copies_in_flight",
        "rpc_server_calls_seconds_count{code=\"OK\",method=\"AllocateBlock");
    assertThat(scrape(ports.get("om"))).contains("om_occ_commits_total", "om_namespace_rows{table=\"keys\"}",
        "rpc_server_calls_seconds_bucket{code=\"OK\",method=\"CommitKey\",service=\"tropos.om.OmService\",le=\"0.001\"}");
    assertThat(scrape(ports.get("s3g"))).contains(
        "s3_requests_seconds_count{operation=\"PUT OBJECT\",status=\"200\"} 3", "s3_received_bytes_total");
    String datanodes = String.join("\n", scrape(ports.get("dn1")), scrape(ports.get("dn2")), scrape(ports.get("dn3")));
    assertThat(datanodes).contains("datanode_raft_commit_seconds_count{pipeline=",
        "datanode_volume_written_bytes_total{volume=", "datanode_scrubber_containers_scanned_total");
  }

  @Test
  @Order(2)
  void theGrafanaDashboardAsksOnlyForMetricsTheDaemonsExport() throws Exception {
    StringBuilder all = new StringBuilder();
    for (String daemon : statusPorts().values()) {
      all.append(scrape(daemon)).append('\n');
    }
    String dashboard = Files.readString(Path.of("..", "docker", "monitoring", "grafana", "dashboards",
        "tropos.json"));
    Matcher names = Pattern.compile("\\b((?:scm|om|s3|datanode|rpc|jvm)_[a-z0-9_]+)").matcher(dashboard);
    TreeSet<String> asked = new TreeSet<>();
    while (names.find()) {
      asked.add(names.group(1));
    }
    assertThat(asked).hasSizeGreaterThan(10);
    List<String> missing = new ArrayList<>();
    for (String name : asked) {
      if (!Pattern.compile("(?m)^" + name + "[{ ]").matcher(all).find()) {
        missing.add(name);
      }
    }
    assertThat(missing).as("metrics the dashboard asks for that no daemon exports").isEmpty();
  }

  @Test
  @Order(3)
  void theConsoleShowsTheLiveClusterAndAStoppedDatanodeTurnsStaleThenDead() throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Debian's chromium and chromium-driver are not installed (.ci/run installs them)");
    WebDriver browser = browser();
    try {
      String console = "http://127.0.0.1:" + mini.cluster().scm().httpPort() + "/?refresh=300";
      browser.get(console + "#overview");
      awaitText(browser, By.id("datanode-count"), "3"::equals);
      awaitText(browser, By.id("s3-requests"), requests -> Integer.parseInt(requests) >= 5);

      browser.get(console + "#pipelines");
      awaitText(browser, By.tagName("main"), page -> page.contains("Pipelines (") && page.contains("LEADER"));

      browser.get(console + "#containers");
      WebElement first = await(browser, By.cssSelector("main table a[href^='#containers/']"));
      String container = first.getText();
      first.click();
      awaitText(browser, By.tagName("main"), page -> page.contains("Container " + container)
          && page.contains("Replicas") && page.contains(LocalCluster.datanodeAddress(1)));

      browser.get(console + "#om");
      awaitText(browser, By.tagName("main"), page -> page.contains("conflict rate") && page.contains("yes"));
      browser.get(console + "#s3");
      awaitText(browser, By.tagName("main"), page -> page.contains("PUT OBJECT") && page.contains("GET OBJECT"));

      browser.get(console + "#datanodes");
      By killedState = By.cssSelector("tr[data-host='" + KILLED + "'] td.node-state");
      awaitText(browser, killedState, "HEALTHY"::equals);
      mini.cluster().stopDatanode(3);
      // The page redraws itself: no reload.
      awaitText(browser, killedState, state -> state.equals("STALE") || state.equals("DEAD"));
      awaitText(browser, killedState, "DEAD"::equals);
      browser.get(console + "#overview");
      awaitText(browser, By.tagName("main"), page -> page.contains("DEAD"));
    } finally {
      browser.quit();
    }
  }

  @Test
  @Order(4)
  void theGatewayIsNotReadyWhileTheOmIsDownAndReadyOnceItIsBack() throws Exception {
    String ready = "http://127.0.0.1:" + gatewayHttp + "/ready";
    mini.cluster().om().close();
    HttpResponse<String> down = awaitStatus(ready, 503);
    assertThat(down.body()).startsWith("NOT READY: the OM does not answer");
    mini.cluster().restartOm();
    awaitStatus(ready, 200);
  }

  private static HttpResponse<String> awaitStatus(String url, int status) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      HttpResponse<String> response = get(url);
      if (response.statusCode() == status) {
        return response;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(url + " answered " + response.statusCode() + " " + response.body() + " for "
            + WAIT + ", not " + status);
      }
      Thread.sleep(200); // the console's server answers in its own time: polled
    }
  }

  private static WebDriver browser() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    // As the machine's probe ran it: no sandbox (root), nothing that reaches for the closed network.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + dir.resolve("chromium-profile"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }

  private static WebElement await(WebDriver browser, By where) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<WebElement> found = browser.findElements(where);
      if (!found.isEmpty()) {
        return found.get(0);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no " + where + " on " + browser.getCurrentUrl() + " within " + WAIT + ":\n"
            + browser.findElement(By.tagName("body")).getText());
      }
      Thread.sleep(100); // the browser redraws in its own time: polled
    }
  }

  private static void awaitText(WebDriver browser, By where, Predicate<String> wanted) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String last = null;
    while (System.nanoTime() < deadline) {
      try {
        List<WebElement> found = browser.findElements(where);
        last = found.isEmpty() ? null : found.get(0).getText();
        if (last != null && wanted.test(last.trim())) {
          return;
        }
      } catch (org.openqa.selenium.StaleElementReferenceException | NumberFormatException e) {
        // Redrawn between finding and reading, or not a number yet: look again.
      }
      Thread.sleep(100); // the browser redraws in its own time: polled
    }
    throw new AssertionError(where + " on " + browser.getCurrentUrl() + " never showed what was expected within "
        + WAIT + "; last: " + last + "\npage:\n" + browser.findElement(By.tagName("body")).getText());
  }

  /** Every daemon's status port: SCM, the OM, each datanode and the gateway. */
  private static Map<String, String> statusPorts() {
    LocalCluster cluster = mini.cluster();
    Map<String, String> ports = new LinkedHashMap<>();
    ports.put("scm", "http://127.0.0.1:" + cluster.scm().httpPort());
    ports.put("om", "http://127.0.0.1:" + omHttp);
    for (int i = 1; i <= 3; i++) {
      DatanodeServer datanode = cluster.datanode(i);
      ports.put("dn" + i, "http://" + LocalCluster.datanodeAddress(i) + ":" + datanode.httpPort());
    }
    ports.put("s3g", "http://127.0.0.1:" + gatewayHttp);
    return ports;
  }

  private static String scrape(String daemon) throws IOException, InterruptedException {
    return get(daemon + "/prom").body();
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

}
