package org.tropos.common.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FaultPointsTest {
  @Test
  void anArmedPointStrikesOnlyWhileArmedAndOnlyThere() throws IOException {
    FaultPoints.hit(FaultPoints.CHUNK_FSYNC);
    AtomicInteger strikes = new AtomicInteger();
    try (FaultPoints.Armed armed = FaultPoints.arm(FaultPoints.CHUNK_FSYNC, point -> strikes.incrementAndGet())) {
      FaultPoints.hit(FaultPoints.CHUNK_FSYNC);
      FaultPoints.hit(FaultPoints.JOURNAL_SYNC);
      assertEquals(1, strikes.get());
      assertThrows(IllegalStateException.class, () -> FaultPoints.arm(FaultPoints.CHUNK_FSYNC, point -> { }),
          "one fault per point at a time");
    }
    FaultPoints.hit(FaultPoints.CHUNK_FSYNC);
    assertEquals(1, strikes.get(), "disarmed");
  }

  @Test
  void aFailingPointThrowsNamingItself() {
    try (FaultPoints.Armed armed = FaultPoints.arm(FaultPoints.ROCKSDB_WRITE, FaultPoints.failing())) {
      IOException e = assertThrows(IOException.class, () -> FaultPoints.hit(FaultPoints.ROCKSDB_WRITE));
      assertEquals("fault injected at rocksdb.write", e.getMessage());
    }
  }
}
