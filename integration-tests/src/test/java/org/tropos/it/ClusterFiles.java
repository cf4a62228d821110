package org.tropos.it;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/**
 * The regular files under a live cluster's directory with their sizes. A running datanode creates and deletes files
 * while they are walked (its disk probe, a container being written), so a file gone between listing and reading its
 * attributes is skipped rather than failing the walk as {@code Files.walk} does.
 */
final class ClusterFiles {

  private ClusterFiles() {
  }

  static Map<Path, Long> sizes(Path root) throws IOException {
    Map<Path, Long> sizes = new HashMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile()) {
          sizes.put(file, attributes.size());
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
        if (failure instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw failure;
      }
    });
    return sizes;
  }
}
