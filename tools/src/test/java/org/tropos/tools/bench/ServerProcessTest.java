package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** How the S3 benchmark finds a server process and reads its CPU time, on this JVM as the server. */
class ServerProcessTest {
  private static final long SELF = ProcessHandle.current().pid();

  @Test
  void findsTheProcessListeningOnAPortAndNoneOnAClosedOne() throws Exception {
    int closed;
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertEquals(OptionalLong.of(SELF), ListeningProcess.of(server.getLocalPort()));
      closed = server.getLocalPort();
    }
    assertEquals(OptionalLong.empty(), ListeningProcess.of(closed));
  }

  @Test
  void theProcessCpuTimeGrowsWithTheWorkOfItsThreads() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long before = ProcessCpu.nanos(SELF);
    long threadStart = threads.getCurrentThreadCpuTime();
    long spin = 0;
    while (threads.getCurrentThreadCpuTime() - threadStart < 300_000_000L) {
      spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
    }
    long used = ProcessCpu.nanos(SELF) - before;
    assertTrue(used >= 250_000_000L, "300 ms of this thread's CPU, the process counted " + used / 1_000_000 + " ms"
        + " (" + spin + ")");
  }
}
