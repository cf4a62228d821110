package org.tropos.tools.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tropos.common.util.NamedThreadFactory;

/**
 * {@code tropos local} in a JVM of its own, as a user runs it: its CPU time is then the whole cluster's, read
 * from outside as for any other S3 server. Ready once it prints its S3 credentials, which it does only when a key
 * of the default replication can be written; its output goes to a log file. Closing it stops it as Ctrl-C does;
 * its starter closes it also when the JVM is stopped ({@link BenchDir#stopOnExit}), or it would run on, orphaned.
 */
public final class TroposLocalProcess implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);
  private static final Pattern ENDPOINT = Pattern.compile("^\\s*S3 gateway\\s+(\\S+)");
  private static final Pattern CREDENTIALS = Pattern.compile("S3 credentials\\s+awsAccessKey=(\\S+) awsSecret=(\\S+)");
  private static final Pattern HTTPS = Pattern.compile("^\\s*S3 \\(HTTPS\\)\\s+(\\S+)\\s+CA certificate (\\S+)");

  private final Process process;
  private final Path log;
  private final CompletableFuture<S3Side> ready = new CompletableFuture<>();
  /** Its HTTPS endpoint with the CA file to trust, once printed (a secure cluster's). */
  private volatile S3Side https;

  /**
   * Starts it with its data in {@code dataDir}, {@code datanodes} datanodes, a heap of {@code heap} (as
   * TROPOS_HEAPSIZE) and {@code settings} over the configuration directory's.
   */
  public TroposLocalProcess(Path dataDir, int datanodes, String heap, Map<String, String> settings)
      throws IOException {
    this(dataDir, dataDir.resolveSibling(dataDir.getFileName() + ".log"), datanodes, heap, settings);
  }

  /** As above, with its output appended to {@code log}. */
  public TroposLocalProcess(Path dataDir, Path log, int datanodes, String heap, Map<String, String> settings)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4"));
    // The launcher's extra JVM options (bin/tropos), for the cluster as for any tropos command.
    String opts = System.getenv("TROPOS_OPTS");
    if (opts != null && !opts.isBlank()) {
      command.addAll(List.of(opts.trim().split("\\s+")));
    }
    // And bin/tropos's own JVM options for Netty's direct memory (it opens java.nio to Netty).
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> arg.startsWith("--add-opens") || arg.endsWith("netty.tryReflectionSetAccessible=true"))
        .forEach(command::add);
    for (String property : List.of("log4j2.configurationFile", "java.util.logging.manager")) {
      if (System.getProperty(property) != null) {
        command.add("-D" + property + "=" + System.getProperty(property));
      }
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.tropos.tools.Tropos", "local",
        "--data-dir", dataDir.toString(), "--datanodes", Integer.toString(datanodes)));
    settings.forEach((key, value) -> command.addAll(List.of("-D", key + "=" + value)));
    Files.createDirectories(dataDir);
    this.log = log;
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    new NamedThreadFactory("tropos-local-output", true).newThread(this::copyOutput).start();
  }

  /**
   * Waits until the cluster takes writes; its S3 service over HTTPS ({@code overHttps}, a secure cluster's) or
   * HTTP, or why it did not start (the log's last lines).
   */
  S3Side awaitReady(boolean overHttps) throws IOException, InterruptedException {
    S3Side http = awaitReady();
    if (!overHttps) {
      return http;
    }
    if (https == null) {
      throw new IOException("tropos local serves no HTTPS: it runs without security (ozone.security.enabled)");
    }
    return https;
  }

  /** Waits until the cluster takes writes; its S3 service over HTTP, or why it did not start. */
  public S3Side awaitReady() throws IOException, InterruptedException {
    try {
      return ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("tropos local did not get ready (" + (e instanceof TimeoutException
          ? "no credentials after " + START_TIMEOUT.toSeconds() + " s" : e.getCause().getMessage()) + "); the end of "
          + log + ":\n" + tail(), e);
    }
  }

  /** Copies the process's output to the log, watching for the lines that say where its S3 service is. */
  private void copyOutput() {
    String endpoint = null;
    Matcher secure = null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8)); PrintWriter out = new PrintWriter(Files.newBufferedWriter(log,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND), true)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(line);
        Matcher at = ENDPOINT.matcher(line);
        Matcher keys = CREDENTIALS.matcher(line);
        Matcher overHttps = HTTPS.matcher(line);
        if (at.find()) {
          endpoint = at.group(1);
        } else if (overHttps.find()) {
          secure = overHttps;
        } else if (keys.find() && endpoint != null) {
          if (secure != null) {
            https = new S3Side("tropos", secure.group(1), keys.group(1), keys.group(2),
                OptionalLong.of(process.pid()), Optional.of(Path.of(secure.group(2))));
          }
          ready.complete(new S3Side("tropos", endpoint, keys.group(1), keys.group(2),
              OptionalLong.of(process.pid())));
        }
      }
    } catch (IOException e) {
      ready.completeExceptionally(e);
    }
    ready.completeExceptionally(new IOException("it exited"));
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  /** Kills the cluster at once (SIGKILL, as a power cut stops it: nothing more is written) and waits for it. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** Stops the cluster as Ctrl-C does and waits for it to end; past a minute, kills it. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
