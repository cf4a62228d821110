package org.tropos.tools.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time (user + system, as Linux accounts it per thread) used so far by the live threads whose names start
 * with a prefix: the server side of a read benchmark, including the kernel's sendfile and copy work done in
 * those threads' system calls.
 */
final class ServerCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ServerCpu() {
  }

  static long nanos(String prefix) {
    long total = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(prefix)) {
        long cpu = THREADS.getThreadCpuTime(t.getId());
        total += Math.max(0, cpu);
      }
    }
    return total;
  }
}
