package org.tropos.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tropos.common.security.KerberosService;
import org.tropos.common.security.SpnegoInitiator;

/**
 * Hadoop's own KMS server (KMSWebServer, from the test-kms module's classpath) in a process of its own, for SSE-KMS,
 * its keys in a JCEKS file under its directory, so that a restart on the same port keeps them: either of simple
 * authentication with every ACL open to every user, or taking only Kerberos (SPNEGO) as {@code HTTP/localhost} of
 * a {@link MitKdc}, every ACL open to {@link #KERBEROS_USERS} only.
 */
final class TestKms implements AutoCloseable {
  private static final String SERVER = "org.apache.hadoop.crypto.key.kms.server.KMSWebServer";
  private static final List<String> ACLS = List.of("CREATE", "DELETE", "ROLLOVER", "GET", "GET_KEYS",
      "GET_METADATA", "GENERATE_EEK", "DECRYPT_EEK");
  private static final List<String> KEY_ACLS = List.of("MANAGEMENT", "GENERATE_EEK", "DECRYPT_EEK", "READ");

  /** The users a Kerberos KMS lets make and use keys: the OM's principal's and the test's administrator's. */
  static final String KERBEROS_USERS = "om,admin";

  private final Path dir;
  private final int port;
  private final HttpClient http = HttpClient.newHttpClient();
  /** The Kerberos KMS's: the realm's configuration, and the administrator's login to make keys with. */
  private final MitKdc kdc;
  private final SpnegoInitiator admin;
  private Process process;

  private TestKms(Path dir, int port, MitKdc kdc, SpnegoInitiator admin) {
    this.dir = dir;
    this.port = port;
    this.kdc = kdc;
    this.admin = admin;
  }

  /** A KMS of simple authentication configured in {@code dir}, started and answering. */
  static TestKms start(Path dir) throws Exception {
    return start(dir, null, null);
  }

  /**
   * A KMS configured in {@code dir} that takes only Kerberos tickets of {@code kdc}'s realm, started and answering;
   * it makes keys when asked as the realm's {@code admin}.
   */
  static TestKms startKerberos(Path dir, MitKdc kdc) throws Exception {
    return start(dir, kdc, SpnegoInitiator.of(new KerberosService(MitKdc.qualified("admin"), kdc.keytab("admin")),
        "localhost"));
  }

  private static TestKms start(Path dir, MitKdc kdc, SpnegoInitiator admin) throws Exception {
    Files.createDirectories(dir);
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    TestKms kms = new TestKms(dir, port, kdc, admin);
    kms.configure();
    kms.restart();
    return kms;
  }

  /** Its base address, e.g. for a raw request. */
  String url() {
    return "http://localhost:" + port + "/kms/";
  }

  /** What {@code hadoop.security.key.provider.path} names it as. */
  String providerPath() {
    return "kms://http@localhost:" + port + "/kms";
  }

  /** Makes KMS key {@code name} (256 bits). */
  void createKey(String name) throws Exception {
    HttpResponse<String> made = call(signed(HttpRequest.newBuilder(uri("v1/keys")))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\",\"cipher\":\"AES/CTR/NoPadding\","
            + "\"length\":256}")));
    if (made.statusCode() / 100 != 2) {
      throw new IOException("the KMS made no key " + name + ": " + made.statusCode() + " " + made.body());
    }
  }

  /** Stops the KMS (its keys stay on disk). */
  void stop() throws InterruptedException {
    if (process != null) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
      process = null;
    }
  }

  /** Starts it (again) on its port, and waits until it answers. */
  void restart() throws Exception {
    stop();
    String classpath = Files.readString(Path.of("..", "test-kms", "target", "kms-classpath.txt")).trim();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-Xmx256m", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Dkms.config.dir=" + dir,
        "-Dlog4j.configuration=kms-log4j.properties"));
    if (kdc != null) {
      command.add("-Djava.security.krb5.conf=" + kdc.krb5Conf());
    }
    command.addAll(List.of("-cp", classpath, SERVER));
    process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("kms.log").toFile())
        .start();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    while (true) {
      try {
        if (call(signed(HttpRequest.newBuilder(uri("v1/keys/names"))).GET()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      }
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        throw new IOException("the KMS did not start: " + Files.readString(dir.resolve("kms.log")));
      }
      Thread.sleep(200); // the KMS process is not listening yet: polled
    }
  }

  private void configure() throws Exception {
    Files.writeString(dir.resolve("core-site.xml"), "<configuration></configuration>\n");
    String authentication = kdc == null ? property("hadoop.kms.authentication.type", "simple")
        : property("hadoop.kms.authentication.type", "kerberos")
        + property("hadoop.kms.authentication.kerberos.principal", MitKdc.qualified("HTTP/localhost"))
        + property("hadoop.kms.authentication.kerberos.keytab", kdc.keytab("HTTP/localhost").toString())
        + property("hadoop.kms.authentication.kerberos.name.rules", "DEFAULT");
    Files.writeString(dir.resolve("kms-site.xml"), "<configuration>\n"
        + property("hadoop.kms.key.provider.uri", "jceks://file@" + dir.resolve("kms.keystore")) + authentication
        + property("hadoop.kms.http.port", Integer.toString(port))
        + property("hadoop.kms.http.host", "localhost") + "</configuration>\n");
    String users = kdc == null ? "*" : KERBEROS_USERS;
    StringBuilder acls = new StringBuilder("<configuration>\n");
    ACLS.forEach(acl -> acls.append(property("hadoop.kms.acl." + acl, users)));
    KEY_ACLS.forEach(acl -> acls.append(property("default.key.acl." + acl, users)));
    Files.writeString(dir.resolve("kms-acls.xml"), acls.append("</configuration>\n"));
    Files.writeString(dir.resolve("kms-log4j.properties"), "log4j.rootLogger=WARN, stdout\n"
        + "log4j.appender.stdout=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout\n");
  }

  private static String property(String name, String value) {
    return "<property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  private URI uri(String path) {
    return URI.create(url() + path + (admin == null ? "?user.name=test" : ""));
  }

  /** {@code request} with the administrator's Kerberos ticket, for a Kerberos KMS. */
  private HttpRequest.Builder signed(HttpRequest.Builder request) throws IOException {
    return admin == null ? request : request.header("Authorization", admin.authorization("localhost"));
  }

  private HttpResponse<String> call(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
