package org.tropos.om.db;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.tropos.common.util.Preconditions;

/**
 * How a row is stored: {@code [format byte][updateId: 8 bytes big-endian][protobuf]}. The updateId (the id of the
 * transaction that last wrote the row) is what optimistic concurrency validates, readable without parsing the
 * row. A row of an unknown format is refused rather than misread.
 */
public final class RowCodec {
  public static final byte FORMAT = 1;
  private static final int HEADER = 9;

  private RowCodec() {
  }

  public static byte[] encode(long updateId, byte[] payload) {
    return ByteBuffer.allocate(HEADER + payload.length).put(FORMAT).putLong(updateId).put(payload).array();
  }

  /** The transaction that last wrote a stored row. */
  public static long updateId(byte[] stored) {
    checkFormat(stored);
    return ByteBuffer.wrap(stored, 1, 8).getLong();
  }

  public static byte[] payload(byte[] stored) {
    checkFormat(stored);
    return Arrays.copyOfRange(stored, HEADER, stored.length);
  }

  private static void checkFormat(byte[] stored) {
    Preconditions.assertTrue(stored.length >= HEADER && stored[0] == FORMAT,
        "OM row of unknown format {} ({} bytes): written by a newer version?", stored.length > 0 ? stored[0] : -1,
        stored.length);
  }
}
