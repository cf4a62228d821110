package org.tropos.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.tools.cli.ExitCodes;

/**
 * What {@code tropos} prints when the service is not there: one line and exit code 4, the stack trace only with
 * {@code --verbose}. Runs the CLI in this JVM against a loopback port nothing listens on.
 */
class TroposFailureTest {
  @TempDir
  Path conf;

  /** gRPC's own log records (it logs through java.util.logging, the JDK's in tests). */
  private final List<LogRecord> grpcRecords = new ArrayList<>();
  private final Logger grpcLogger = Logger.getLogger("io.grpc");
  private final Handler recorder = new Handler() {
    @Override
    public void publish(LogRecord record) {
      synchronized (grpcRecords) {
        grpcRecords.add(record);
      }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };

  private record Result(int exitCode, String out, String err) {
  }

  @BeforeEach
  void recordGrpcLogs() {
    grpcLogger.addHandler(recorder);
  }

  @AfterEach
  void stopRecording() {
    grpcLogger.removeHandler(recorder);
  }

  @Test
  void unreachableOmIsOneLineWithExitCodeFour() throws IOException {
    String om = "127.0.0.1:" + closedPort();
    Result r = tropos("sh", "volume", "create", "o3://" + om + "/v1");
    assertEquals(ExitCodes.UNAVAILABLE, r.exitCode(), r.err());
    assertEquals(List.of("tropos: cannot reach the OM at " + om + " (connection refused); is it running?"
        + " ('tropos om', or 'tropos local' for a whole cluster)"), r.err().lines().toList());
    assertEquals("", r.out());
  }

  @Test
  void unreachableScmIsOneLineWithExitCodeFour() throws IOException {
    String scm = "127.0.0.1:" + closedPort();
    Result r = tropos("admin", "datanode", "list", "-D", "ozone.scm.client.address=" + scm);
    assertEquals(ExitCodes.UNAVAILABLE, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("tropos: cannot reach SCM at " + scm + " (connection refused); is it running?"),
        r.err());
  }

  @Test
  void verboseOnTheTopCommandOrTheLastAddsTheStackTrace() throws IOException {
    String om = "127.0.0.1:" + closedPort();
    for (List<String> args : List.of(List.of("--verbose", "sh", "volume", "list", "o3://" + om + "/"),
        List.of("sh", "volume", "list", "o3://" + om + "/", "--verbose"))) {
      Result r = tropos(args.toArray(new String[0]));
      assertEquals(ExitCodes.UNAVAILABLE, r.exitCode(), r.err());
      List<String> lines = r.err().lines().toList();
      assertTrue(lines.get(0).startsWith("tropos: cannot reach the OM at " + om + " (connection refused)"), r.err());
      assertTrue(lines.contains("Caused by: io.grpc.StatusRuntimeException: UNAVAILABLE: io exception"), r.err());
      assertTrue(lines.stream().anyMatch(line -> line.startsWith("\tat io.grpc.")), r.err());
    }
  }

  /** An unknown host is where gRPC logs a warning with a stack trace of its own; .invalid never resolves. */
  @Test
  void grpcLogsOnlyWithVerbose() {
    String om = "no-such-om.invalid:9862";
    Result quiet = tropos("sh", "volume", "list", "o3://" + om + "/");
    assertEquals(ExitCodes.UNAVAILABLE, quiet.exitCode(), quiet.err());
    assertEquals(List.of("tropos: cannot reach the OM at " + om + " (unknown host); is it running?"
        + " ('tropos om', or 'tropos local' for a whole cluster)"), quiet.err().lines().toList());
    assertEquals(List.of(), messages(), "gRPC logged without --verbose");

    Result verbose = tropos("sh", "volume", "list", "o3://" + om + "/", "--verbose");
    assertEquals(ExitCodes.UNAVAILABLE, verbose.exitCode(), verbose.err());
    assertFalse(messages().isEmpty(), "with --verbose gRPC's warning is logged");
  }

  /** Hadoop's FsShell reports its own failures; the exit code still says the OM could not be reached. */
  @Test
  void fsWithTheOmDownEndsWithTheSameLineAndExitCodeFour() throws IOException {
    String om = "127.0.0.1:" + closedPort();
    Files.writeString(conf.resolve("ozone-site.xml"), "<configuration><property><name>ozone.om.address</name>"
        + "<value>" + om + "</value></property></configuration>");
    Result r = tropos("fs", "-ls", "/");
    assertEquals(ExitCodes.UNAVAILABLE, r.exitCode(), r.err());
    List<String> lines = r.err().lines().toList();
    assertEquals("tropos: cannot reach the OM at " + om + " (connection refused); is it running? ('tropos om', or"
        + " 'tropos local' for a whole cluster)", lines.get(lines.size() - 1), r.err());
  }

  @Test
  void usageErrorsKeepTheirExitCode() {
    assertEquals(ExitCodes.USAGE, tropos("sh", "volume", "no-such-command").exitCode());
    assertEquals(ExitCodes.USAGE, tropos("--verbose", "no-such-command").exitCode());
  }

  private List<String> messages() {
    synchronized (grpcRecords) {
      return grpcRecords.stream().map(LogRecord::getMessage).toList();
    }
  }

  private Result tropos(String... args) {
    List<String> withConf = new ArrayList<>(List.of(args));
    withConf.addAll(List.of("--conf", conf.toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), withConf.toArray(new String[0]));
    return new Result(code, out.toString(), err.toString());
  }

  /** A loopback port nothing listens on: one the system just handed out and took back. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
