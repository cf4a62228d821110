package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Finds the local process that listens on a TCP port, as {@code ss -ltnp} does: the port's listening sockets in
 * {@code /proc/net/tcp} and {@code tcp6}, then the process holding one of them open. Only processes whose open
 * files this user may read are found (its own, or all as root).
 */
final class ListeningProcess {
  private static final String LISTEN = "0A";

  private ListeningProcess() {
  }

  static OptionalLong of(int port) {
    Set<String> sockets = listeningSocketInodes(port);
    if (sockets.isEmpty()) {
      return OptionalLong.empty();
    }
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), p -> isNumber(p))) {
      for (Path process : processes) {
        if (holdsAny(process, sockets)) {
          return OptionalLong.of(Long.parseLong(process.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
    }
    return OptionalLong.empty();
  }

  /** The inodes of the sockets listening on {@code port}, on any address. */
  private static Set<String> listeningSocketInodes(int port) {
    String portHex = String.format(Locale.ROOT, ":%04X", port);
    Set<String> inodes = new HashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(Path.of(table));
      } catch (IOException e) {
        continue; // no IPv6 on this machine
      }
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[1].endsWith(portHex) && f[3].equals(LISTEN)) {
          inodes.add("socket:[" + f[9] + "]");
        }
      }
    }
    return inodes;
  }

  private static boolean holdsAny(Path process, Set<String> sockets) {
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
      for (Path fd : fds) {
        if (sockets.contains(link(fd))) {
          return true;
        }
      }
    } catch (IOException | SecurityException e) {
      return false; // another user's process, or one that has just ended
    }
    return false;
  }

  /** Where an open file descriptor points, or "" when it was closed meanwhile. */
  private static String link(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return "";
    }
  }

  private static boolean isNumber(Path p) {
    String name = p.getFileName().toString();
    return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
  }
}
