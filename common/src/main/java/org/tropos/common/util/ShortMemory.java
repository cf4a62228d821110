package org.tropos.common.util;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Values remembered for a short while, so that a burst of requests for one key costs one fetch: a value is
 * forgotten {@code keptMillis} after it was remembered. Bounded: at {@code most} entries (keys callers make up
 * cannot grow the memory further) everything is forgotten at once.
 *
 * <p>Thread-safe.
 */
public final class ShortMemory<K, V> {
  private record Kept<V>(V value, long atMillis) {
  }

  private final Clock clock;
  private final long keptMillis;
  private final int most;
  private final Map<K, Kept<V>> kept = new ConcurrentHashMap<>();

  public ShortMemory(Clock clock, long keptMillis, int most) {
    this.clock = clock;
    this.keptMillis = keptMillis;
    this.most = most;
  }

  /** The value remembered for {@code key} less than {@code keptMillis} ago, or null. */
  public V get(K key) {
    Kept<V> known = kept.get(key);
    return known != null && clock.monotonicMillis() - known.atMillis() < keptMillis ? known.value() : null;
  }

  public void remember(K key, V value) {
    if (kept.size() >= most) {
      kept.clear();
    }
    kept.put(key, new Kept<>(value, clock.monotonicMillis()));
  }
}
