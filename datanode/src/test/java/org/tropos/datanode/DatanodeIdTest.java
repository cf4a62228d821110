package org.tropos.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatanodeIdTest {
  @TempDir
  Path dir;

  @Test
  void idIsCreatedOnceAndReused() throws IOException {
    DatanodeId first = DatanodeId.loadOrCreate(dir);
    assertEquals("", first.clusterId());
    DatanodeId joined = first.withClusterId("CID-1", dir);
    DatanodeId again = DatanodeId.loadOrCreate(dir);
    assertEquals(first.uuid(), again.uuid());
    assertEquals("CID-1", again.clusterId());
    assertEquals(joined, again);
  }

  @Test
  void idFileOfANewerLayoutIsRefused() throws IOException {
    Files.writeString(dir.resolve(DatanodeId.FILE_NAME), "layoutVersion=99\ndatanodeUuid=x\n");
    IOException e = assertThrows(IOException.class, () -> DatanodeId.loadOrCreate(dir));
    assertTrue(e.getMessage().contains("layoutVersion 99"), e.getMessage());
  }
}
