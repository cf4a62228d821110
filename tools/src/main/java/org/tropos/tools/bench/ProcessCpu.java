package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system, all threads) a process has used so far, read from {@code /proc/PID/stat}: the cost of
 * a server measured from outside, whatever its language, garbage collector and JIT compiler included.
 */
final class ProcessCpu {
  /** Linux reports the times in USER_HZ ticks, 100 per second on every architecture it supports. */
  private static final long NANOS_PER_TICK = 10_000_000L;
  /** utime and stime: fields 14 and 15 of the line, counted from 1; the 3rd is the first after the name. */
  private static final int UTIME_AFTER_NAME = 14 - 3;

  private ProcessCpu() {
  }

  /** Nanoseconds of CPU used by process {@code pid}, at the 10 ms resolution Linux accounts them in. */
  static long nanos(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the CPU time of process " + pid + ": " + e.getMessage(), e);
    }
    // The name in parentheses may hold spaces and parentheses itself: the fields start after the last ')'.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long ticks = Long.parseLong(fields[UTIME_AFTER_NAME]) + Long.parseLong(fields[UTIME_AFTER_NAME + 1]);
    return ticks * NANOS_PER_TICK;
  }
}
