package org.tropos.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A real MIT Kerberos KDC (Debian's krb5-kdc, krb5-admin-server and krb5-user; .ci/run installs them) on a loopback port,
 * its database, configuration and keytabs in a directory of the test's. Tests that need one are skipped where the
 * programs are missing. The JVM's Kerberos is pointed at it ({@code java.security.krb5.conf}).
 */
final class MitKdc implements AutoCloseable {
  static final String REALM = "TROPOS.TEST";
  private static final Path KRB5KDC = Path.of("/usr/sbin/krb5kdc");
  private static final Path KDB5_UTIL = Path.of("/usr/sbin/kdb5_util");
  private static final Path KADMIN_LOCAL = Path.of("/usr/sbin/kadmin.local");
  private static final Path KINIT = Path.of("/usr/bin/kinit");
  private static final Duration START = Duration.ofSeconds(20);

  private final Path dir;
  private final Map<String, String> environment;
  private final Process kdc;

  private MitKdc(Path dir, Map<String, String> environment, Process kdc) {
    this.dir = dir;
    this.environment = environment;
    this.kdc = kdc;
  }

  /** Creates the realm's database in {@code dir} and starts the KDC; skips the test without MIT Kerberos. */
  static MitKdc start(Path dir) throws Exception {
    assumeTrue(Files.isExecutable(KRB5KDC) && Files.isExecutable(KDB5_UTIL) && Files.isExecutable(KADMIN_LOCAL)
        && Files.isExecutable(KINIT), "MIT Kerberos is not installed (apt-get install krb5-kdc krb5-admin-server"
        + " krb5-user)");
    Files.createDirectories(dir);
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Files.writeString(dir.resolve("kdc.conf"), "[kdcdefaults]\n kdc_listen = 127.0.0.1:" + port + "\n"
        + " kdc_tcp_listen = 127.0.0.1:" + port + "\n[realms]\n " + REALM + " = {\n  database_name = "
        + dir.resolve("principal") + "\n  key_stash_file = " + dir.resolve("stash") + "\n  acl_file = "
        + dir.resolve("kadm5.acl") + "\n  max_life = 1d\n  supported_enctypes = aes256-cts-hmac-sha1-96:normal"
        + " aes128-cts-hmac-sha1-96:normal\n }\n[logging]\n kdc = FILE:" + dir.resolve("kdc.log") + "\n");
    Files.writeString(dir.resolve("kadm5.acl"), "");
    Files.writeString(dir.resolve("krb5.conf"), "[libdefaults]\n default_realm = " + REALM + "\n"
        + " dns_lookup_kdc = false\n dns_lookup_realm = false\n rdns = false\n udp_preference_limit = 1\n"
        + "[realms]\n " + REALM + " = {\n  kdc = 127.0.0.1:" + port + "\n }\n");
    Map<String, String> environment = Map.of("KRB5_CONFIG", dir.resolve("krb5.conf").toString(),
        "KRB5_KDC_PROFILE", dir.resolve("kdc.conf").toString());
    run(environment, dir, KDB5_UTIL.toString(), "create", "-s", "-r", REALM, "-P", UUID.randomUUID().toString());
    ProcessBuilder daemon = new ProcessBuilder(KRB5KDC.toString(), "-n", "-r", REALM).redirectErrorStream(true)
        .redirectOutput(dir.resolve("krb5kdc.out").toFile()).directory(dir.toFile());
    daemon.environment().putAll(environment);
    Process kdc = daemon.start();
    kdc.getOutputStream().close();
    MitKdc started = new MitKdc(dir, environment, kdc);
    try {
      started.awaitListening(port);
    } catch (Exception e) {
      started.close();
      throw e;
    }
    System.setProperty("java.security.krb5.conf", started.krb5Conf().toString());
    return started;
  }

  /** The client configuration naming this KDC and realm. */
  Path krb5Conf() {
    return dir.resolve("krb5.conf");
  }

  /**
   * Adds {@code principal} (of this realm, e.g. {@code om/localhost}) with a random key; returns its keytab, the one
   * made before when it was added already.
   */
  Path keytab(String principal) throws Exception {
    Path keytab = dir.resolve(principal.replace('/', '_') + ".keytab");
    if (Files.exists(keytab)) {
      return keytab;
    }
    run(environment, dir, KADMIN_LOCAL.toString(), "-r", REALM, "-q", "addprinc -randkey " + principal);
    run(environment, dir, KADMIN_LOCAL.toString(), "-r", REALM, "-q", "ktadd -k " + keytab + " " + principal);
    return keytab;
  }

  /** Fills the ticket cache {@code cache} with a ticket of {@code principal}, as a user's {@code kinit} does. */
  void kinit(String principal, Path keytab, Path cache) throws Exception {
    run(environment, dir, KINIT.toString(), "-kt", keytab.toString(), "-c", "FILE:" + cache, qualified(principal));
  }

  /** {@code principal} with this realm, e.g. {@code alice@TROPOS.TEST}. */
  static String qualified(String principal) {
    return principal + "@" + REALM;
  }

  private void awaitListening(int port) throws Exception {
    long deadline = System.nanoTime() + START.toNanos();
    while (true) {
      if (!kdc.isAlive()) {
        throw new IOException("krb5kdc exited: " + Files.readString(dir.resolve("krb5kdc.out")));
      }
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IOException("krb5kdc did not listen on port " + port + " within " + START, notYet);
        }
        Thread.sleep(50); // the krb5kdc process is not listening yet: polled
      }
    }
  }

  private static void run(Map<String, String> environment, Path dir, String... command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true)
        .directory(dir.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output);
    }
  }

  @Override
  public void close() {
    kdc.destroy();
    try {
      kdc.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
