package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Paging of listings: where a scan starts, and a page of at most {@code max} results plus a "truncated" flag. */
final class Listing {
  static final int MAX_PAGE = 1000;

  private Listing() {
  }

  /** The first key to visit: the prefix, or just past {@code startAfter} when that is further on. */
  static byte[] from(byte[] prefix, byte[] startAfterKey) {
    if (startAfterKey == null) {
      return prefix;
    }
    byte[] past = Arrays.copyOf(startAfterKey, startAfterKey.length + 1);
    return Arrays.compareUnsigned(past, prefix) > 0 ? past : prefix;
  }

  static int pageSize(int requested) {
    return requested <= 0 ? MAX_PAGE : Math.min(requested, MAX_PAGE);
  }

  /** Collects up to {@code limit} items; one more means the page is truncated. */
  static final class Page<T> {
    private final int limit;
    private final List<T> items = new ArrayList<>();
    private boolean truncated;

    Page(int limit) {
      this.limit = limit;
    }

    /** Adds an item; false once the page is full (the caller stops scanning). */
    boolean add(T item) {
      if (items.size() == limit) {
        truncated = true;
        return false;
      }
      items.add(item);
      return true;
    }

    List<T> items() {
      return items;
    }

    boolean truncated() {
      return truncated;
    }
  }
}
