package org.tropos.common.db;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * Reads of one view of a {@link ManagedRocksDb}: a snapshot, or the latest state. Close it when done: a snapshot
 * pins old versions.
 */
public final class ReadView implements AutoCloseable {
  /** Visits rows in key order; returns false to stop. */
  @FunctionalInterface
  public interface RowVisitor {
    boolean visit(byte[] key, byte[] value);
  }

  private final RocksDB db;
  private final Snapshot snapshot;
  private final ReadOptions options;
  private final Function<String, ColumnFamilyHandle> families;
  private final BiFunction<String, RocksDBException, IOException> failure;

  ReadView(RocksDB db, Snapshot snapshot, Function<String, ColumnFamilyHandle> families,
      BiFunction<String, RocksDBException, IOException> failure) {
    this.db = db;
    this.snapshot = snapshot;
    this.families = families;
    this.failure = failure;
    this.options = new ReadOptions();
    if (snapshot != null) {
      options.setSnapshot(snapshot);
    }
  }

  public byte[] get(String family, byte[] key) throws IOException {
    try {
      return db.get(families.apply(family), options, key);
    } catch (RocksDBException e) {
      throw failure.apply("read", e);
    }
  }

  /** Visits the rows whose keys start with {@code prefix}, from the first key ≥ {@code from}, in key order. */
  public void scan(String family, byte[] prefix, byte[] from, RowVisitor visitor) {
    try (RocksIterator it = db.newIterator(families.apply(family), options)) {
      for (it.seek(from); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (!startsWith(key, prefix) || !visitor.visit(key, it.value())) {
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    options.close();
    if (snapshot != null) {
      db.releaseSnapshot(snapshot);
    }
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
