package org.tropos.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What encryption-at-rest tests look for on disk: recognisable plaintext, and whether any file holds some bytes. */
final class DiskScan {
  private DiskScan() {
  }

  /** Bytes no other object has: a name repeated with a counter, so any 64-byte window of them is unique. */
  static byte[] uniqueText(String name, int size) {
    StringBuilder text = new StringBuilder(size + 64);
    for (int i = 0; text.length() < size; i++) {
      text.append(name).append(':').append(i).append(';');
    }
    return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
  }

  /** Whether any file under {@code dir} holds {@code wanted}. */
  static boolean anyFileHolds(Path dir, byte[] wanted) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes;
        try {
          bytes = Files.readAllBytes(file);
        } catch (IOException e) {
          continue; // removed while the walk ran (a rolled log)
        }
        if (indexOf(bytes, wanted) >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  private static int indexOf(byte[] bytes, byte[] wanted) {
    outer:
    for (int i = 0; i + wanted.length <= bytes.length; i++) {
      for (int j = 0; j < wanted.length; j++) {
        if (bytes[i + j] != wanted[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
