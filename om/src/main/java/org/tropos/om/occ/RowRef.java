package org.tropos.om.occ;

import java.nio.ByteBuffer;
import org.tropos.om.db.OmTable;

/** One row, by table and key, usable as a map key (keys compare by content). */
public record RowRef(OmTable table, ByteBuffer key) {
  public static RowRef of(OmTable table, byte[] key) {
    return new RowRef(table, ByteBuffer.wrap(key.clone()).asReadOnlyBuffer());
  }

  public byte[] keyBytes() {
    byte[] bytes = new byte[key.remaining()];
    key.duplicate().get(bytes);
    return bytes;
  }
}
