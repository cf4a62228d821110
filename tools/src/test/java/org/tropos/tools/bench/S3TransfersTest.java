package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class S3TransfersTest {
  @Test
  void aPhaseTakesTurnsInSlicesThatKeepEveryStreamBusy() {
    assertEquals(16, S3Transfers.slices(3200, 16), "small objects: at most 16");
    assertEquals(3, S3Transfers.slices(400, 16), "8 requests per stream in each");
    assertEquals(2, S3Transfers.slices(2, 1), "one 1 GiB object at a time: each side goes first once");
    assertEquals(2, S3Transfers.slices(32, 16));
    assertEquals(1, S3Transfers.slices(16, 16), "halves would leave streams idle");
    assertEquals(1, S3Transfers.slices(4, 16));
    assertEquals(1, S3Transfers.slices(1, 1));
  }
}
