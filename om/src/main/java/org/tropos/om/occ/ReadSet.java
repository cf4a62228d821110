package org.tropos.om.occ;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tropos.om.db.OmTable;

/**
 * What a transaction's read phase saw: the version (updateId) of every row it read, {@link #ABSENT} for a row
 * that did not exist, and every key range it found empty (a directory with no children, a volume with no
 * buckets). The transaction may commit only if all of this still holds (the seed's "semantic related group").
 */
public final class ReadSet {
  /** The version recorded for a row that did not exist; transaction ids start at 1. */
  public static final long ABSENT = 0;

  /** A key range (every key starting with {@code prefix}) that was empty. */
  public record EmptyRange(OmTable table, byte[] prefix) {
  }

  private final Map<RowRef, Long> versions = new LinkedHashMap<>();
  private final List<EmptyRange> emptyRanges = new ArrayList<>();

  void recordRow(RowRef row, long version) {
    versions.putIfAbsent(row, version);
  }

  void recordEmpty(OmTable table, byte[] prefix) {
    emptyRanges.add(new EmptyRange(table, prefix.clone()));
  }

  public Map<RowRef, Long> versions() {
    return Collections.unmodifiableMap(versions);
  }

  public List<EmptyRange> emptyRanges() {
    return Collections.unmodifiableList(emptyRanges);
  }
}
