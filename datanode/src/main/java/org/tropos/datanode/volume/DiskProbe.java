package org.tropos.datanode.volume;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Proves a directory usable: writes a small file of random bytes, syncs it, reads it back, compares and deletes
 * it. The file is a dot-file removed at once, so RaftLog directories stay clean (Ratis counts their entries).
 */
final class DiskProbe {
  private static final int PROBE_BYTES = 4096;

  private DiskProbe() {
  }

  static void check(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException(dir + " is not a directory");
    }
    byte[] written = new byte[PROBE_BYTES];
    ThreadLocalRandom.current().nextBytes(written);
    Path probe = dir.resolve(".tropos-disk-check-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    try {
      try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(written));
        ch.force(true);
      }
      byte[] read = Files.readAllBytes(probe);
      if (!Arrays.equals(written, read)) {
        throw new IOException("data read back from " + dir + " differs from what was written");
      }
    } finally {
      Files.deleteIfExists(probe);
    }
  }
}
