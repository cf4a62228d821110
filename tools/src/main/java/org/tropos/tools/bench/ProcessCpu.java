package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
  /** What reading a file of a thread that ended meanwhile fails with (ESRCH). */
  private static final String THREAD_ENDED = "No such process";

  private ProcessCpu() {
  }

  /** Nanoseconds of CPU used by process {@code pid}, at the 10 ms resolution Linux accounts them in. */
  static long nanos(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    try {
      return nanos(Files.readString(stat));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the CPU time of process " + pid + ": " + e.getMessage(), e);
    }
  }

  /**
   * Of those, the nanoseconds its JIT compiler threads used (a JVM's "C1/C2 CompilerThreadN"; 0 for a server
   * compiled ahead of time): how far from warm a JVM server still is.
   */
  static long compilerNanos(long pid) {
    long total = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path thread : threads) {
        String name = readOrEmpty(thread.resolve("comm")).trim();
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
          String stat = readOrEmpty(thread.resolve("stat"));
          total += stat.isEmpty() ? 0 : nanos(stat); // empty: a thread that has just ended
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the threads of process " + pid + ": " + e.getMessage(), e);
    }
    return total;
  }

  /** The CPU time in a process's or thread's stat line. */
  private static long nanos(String line) {
    // The name in parentheses may hold spaces and parentheses itself: the fields start after the last ')'.
    String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
    long ticks = Long.parseLong(fields[UTIME_AFTER_NAME]) + Long.parseLong(fields[UTIME_AFTER_NAME + 1]);
    return ticks * NANOS_PER_TICK;
  }

  /** The file's text; empty if its thread has ended since it was listed (gone, or "No such process"). */
  private static String readOrEmpty(Path file) {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      return "";
    } catch (FileSystemException e) {
      if (THREAD_ENDED.equals(e.getReason())) {
        return "";
      }
      throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
