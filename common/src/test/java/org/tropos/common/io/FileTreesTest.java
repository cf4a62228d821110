package org.tropos.common.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreesTest {
  @TempDir
  Path dir;

  @Test
  void sizesEveryRegularFileAndDeletesTheWholeTree() throws Exception {
    Path tree = dir.resolve("tree");
    Files.createDirectories(tree.resolve("a/b"));
    Files.createDirectories(tree.resolve("empty"));
    Files.write(tree.resolve("top"), new byte[3]);
    Files.write(tree.resolve("a/b/deep"), new byte[7]);

    assertEquals(Map.of(tree.resolve("top"), 3L, tree.resolve("a/b/deep"), 7L), FileTrees.regularFileSizes(tree));
    assertEquals(10, FileTrees.regularFileBytes(tree));
    FileTrees.delete(tree);
    assertFalse(Files.exists(tree));
    assertTrue(Files.isDirectory(dir), "only the tree given is deleted");
  }

  @Test
  void aTreeThatIsNotThereIsEmptyAndAlreadyDeleted() throws Exception {
    Path missing = dir.resolve("missing");
    assertEquals(Map.of(), FileTrees.regularFileSizes(missing));
    assertEquals(0, FileTrees.regularFileBytes(missing));
    FileTrees.delete(missing);
    assertFalse(Files.exists(missing));
  }
}
