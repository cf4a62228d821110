package org.tropos.om.db;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.tropos.common.db.ManagedRocksDb;

/**
 * The OM's RocksDB: one column family per {@link OmTable}, rows encoded by {@link RowCodec}, keys by
 * {@link OmDbKeys}. Besides rows, {@code meta} holds the layout version, the last committed transaction id and
 * the object-id high-water mark. A database of a newer layout is refused.
 */
public final class OmDb implements AutoCloseable {
  public static final int LAYOUT_VERSION = 1;
  private static final byte[] LAYOUT = utf8("layoutVersion");
  private static final byte[] LAST_TX = utf8("lastTxId");
  private static final byte[] OBJECT_ID_HIGH_WATER = utf8("objectIdHighWater");

  private final ManagedRocksDb db;

  private OmDb(ManagedRocksDb db) {
    this.db = db;
  }

  public static OmDb open(Path dir) throws IOException {
    ManagedRocksDb db = ManagedRocksDb.open(dir, Arrays.stream(OmTable.values()).map(OmTable::family).toList());
    try {
      byte[] stored = db.get(OmTable.META.family(), LAYOUT);
      if (stored == null) {
        db.put(OmTable.META.family(), LAYOUT, utf8(Integer.toString(LAYOUT_VERSION)));
      } else if (Integer.parseInt(new String(stored, StandardCharsets.UTF_8)) > LAYOUT_VERSION) {
        throw new IOException("OM database " + dir + " has layout " + new String(stored, StandardCharsets.UTF_8)
            + "; this version reads up to " + LAYOUT_VERSION);
      }
      return new OmDb(db);
    } catch (IOException | RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** A consistent view for one request's read phase; close it. */
  public ManagedRocksDb.ReadView snapshot() {
    return db.snapshot();
  }

  /** The latest committed state, for validation. */
  public ManagedRocksDb.ReadView latest() {
    return db.latest();
  }

  public long lastTxId() throws IOException {
    return metaLong(LAST_TX);
  }

  public long objectIdHighWater() throws IOException {
    return metaLong(OBJECT_ID_HIGH_WATER);
  }

  public void setObjectIdHighWater(long value) throws IOException {
    db.put(OmTable.META.family(), OBJECT_ID_HIGH_WATER, longBytes(value));
  }

  private long metaLong(byte[] key) throws IOException {
    byte[] value = db.get(OmTable.META.family(), key);
    return value == null ? 0 : ByteBuffer.wrap(value).getLong();
  }

  /** One stored change: {@code value} null deletes the row. */
  public record Change(OmTable table, byte[] key, byte[] value) {
  }

  /** Applies validated changes atomically with one WAL sync, recording {@code lastTxId}. */
  public void apply(List<Change> changes, long lastTxId) throws IOException {
    db.writeBatch(batch -> {
      for (Change c : changes) {
        if (c.value() == null) {
          batch.delete(c.table().family(), c.key());
        } else {
          batch.put(c.table().family(), c.key(), c.value());
        }
      }
      batch.put(OmTable.META.family(), LAST_TX, longBytes(lastTxId));
    });
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(8).putLong(value).array();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    db.close();
  }
}
