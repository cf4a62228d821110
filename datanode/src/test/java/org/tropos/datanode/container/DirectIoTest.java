package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectIoTest {
  /**
   * A write that failed on a file system that takes O_DIRECT (a full disk) leaves direct I/O on: it once switched
   * it off for the datanode's life.
   */
  @Test
  void aFailureOnAFileSystemThatTakesDirectIoLeavesItOn(@TempDir Path dir) throws IOException {
    Path file = Files.createFile(dir.resolve("block"));
    try (var probe = DirectIo.open(file, StandardOpenOption.READ)) {
      assumeTrue(probe.isOpen());
    } catch (IOException e) {
      assumeTrue(false, "the temporary directory's file system refuses O_DIRECT: " + e);
    }
    DirectIo directIo = new DirectIo(64 * 1024);
    directIo.failed(file, new IOException("No space left on device"));
    assertTrue(directIo.enabled());
  }
}
