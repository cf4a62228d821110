package org.tropos.common.util;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this JVM's heap is nearly full of live objects. After each garbage collection the old generation still
 * in use (the whole heap if it has no generations) is compared with its maximum: from {@value #HIGH_PERCENT} % the
 * heap is under pressure, and it stays so until a collection leaves less than {@value #LOW_PERCENT} % (one
 * collection does not flip it back and forth). A daemon under pressure refuses the work that brings new data in
 * (S3 uploads, new keys and blocks, chunk writes) with a hint to retry after {@link #RETRY_AFTER}, and goes on
 * serving the rest, rather than spending its time collecting garbage until it answers nothing.
 *
 * <p>One per JVM, as the heap is: the daemons of {@code tropos local} share it. Thread-safe: the state is volatile,
 * written by the JVM's notification thread.
 */
public final class HeapPressure {
  private static final Logger LOG = LoggerFactory.getLogger(HeapPressure.class);
  static final int HIGH_PERCENT = 90;
  static final int LOW_PERCENT = 80;
  /** What a refused caller is told to wait: about the time a few collections take to free the heap. */
  public static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static volatile HeapPressure jvm;

  private volatile boolean high;
  private volatile int lastPercent;

  HeapPressure() {
  }

  /** This JVM's, listening to its garbage collectors from the first call on. */
  public static HeapPressure jvm() {
    HeapPressure current = jvm;
    if (current == null) {
      synchronized (HeapPressure.class) {
        if (jvm == null) {
          jvm = listening();
        }
        current = jvm;
      }
    }
    return current;
  }

  private static HeapPressure listening() {
    HeapPressure pressure = new HeapPressure();
    List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP).toList();
    // A generational heap is full when its old generation is: the young one is emptied by every collection. Without
    // one (ZGC, Shenandoah) the whole heap counts.
    Optional<MemoryPoolMXBean> old = heap.stream()
        .filter(pool -> pool.getName().contains("Old") || pool.getName().contains("Tenured")).findFirst();
    Set<String> watched = old.map(pool -> Set.of(pool.getName()))
        .orElseGet(() -> heap.stream().map(MemoryPoolMXBean::getName).collect(Collectors.toSet()));
    long max = old.map(pool -> pool.getUsage().getMax()).filter(m -> m > 0).orElse(Runtime.getRuntime().maxMemory());
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener((notification, handback) -> {
          GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
              (CompositeData) notification.getUserData());
          pressure.afterCollection(usedIn(info.getGcInfo().getMemoryUsageAfterGc(), watched), max);
        }, n -> GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType()), null);
      }
    }
    return pressure;
  }

  private static long usedIn(Map<String, MemoryUsage> usage, Set<String> pools) {
    return usage.entrySet().stream().filter(e -> pools.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed())
        .sum();
  }

  /** Records what a collection left: {@code used} bytes of a heap of at most {@code max}. */
  void afterCollection(long used, long max) {
    int percent = (int) (100 * used / max);
    lastPercent = percent;
    if (!high && percent >= HIGH_PERCENT) {
      high = true;
      LOG.warn("The heap is {} % full after a garbage collection: new writes are refused (busy, retry after {})"
          + " until it is below {} %", percent, RETRY_AFTER, LOW_PERCENT);
    } else if (high && percent < LOW_PERCENT) {
      high = false;
      LOG.info("The heap is {} % full after a garbage collection: writes are taken again", percent);
    }
  }

  /** Whether new work that brings data in should be refused. */
  public boolean high() {
    return high;
  }

  /** Why work is refused, for the caller. */
  public String reason() {
    return "the server is short of memory (its heap was " + lastPercent + " % full after a garbage collection);"
        + " retry after " + RETRY_AFTER.toMillis() + " ms";
  }
}
