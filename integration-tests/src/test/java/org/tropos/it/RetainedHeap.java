package org.tropos.it;

import com.sun.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.ObjectName;

/**
 * What this JVM keeps alive: the heap in use right after a full collection, as that collection reports it (the
 * cluster tests run the serial collector, for which {@code System.gc()} is one). What other threads allocate
 * afterwards does not count: the heap in use read a moment later varied by megabytes under heartbeats, and a class
 * histogram counts the fillers of the threads' allocation buffers. The largest classes of the live objects are
 * kept to name what grew.
 *
 * @param bytes the live objects' bytes
 * @param largest the classes with the most live bytes (a few hundred, so that a histogram kept for a later
 *     comparison adds little to it), by name
 */
record RetainedHeap(long bytes, Map<String, ClassCount> largest) {
  private static final int CLASSES_KEPT = 300;

  /** Bytes and instances of one class among the live objects. */
  record ClassCount(long instances, long bytes) {
  }

  static RetainedHeap now() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    Map<String, ClassCount> largest = new java.util.HashMap<>();
    for (String line : text.lines().toList()) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && largest.size() < CLASSES_KEPT) {
        largest.put(f[3], new ClassCount(Long.parseLong(f[1]), Long.parseLong(f[2])));
      }
    }
    System.gc();
    return new RetainedHeap(liveAfterLastFullCollection(), Map.copyOf(largest));
  }

  private static long liveAfterLastFullCollection() {
    Set<String> heap = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
        .map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    // The full collector is the one that manages every heap pool (the young one manages only the young pools).
    GarbageCollectorMXBean full = ManagementFactory.getGarbageCollectorMXBeans().stream()
        .filter(c -> Set.of(c.getMemoryPoolNames()).containsAll(heap)).map(c -> (GarbageCollectorMXBean) c)
        .findFirst().orElseThrow(() -> new IllegalStateException("no collector of the whole heap"));
    return full.getLastGcInfo().getMemoryUsageAfterGc().entrySet().stream()
        .filter(e -> heap.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed()).sum();
  }

  /** The {@code top} classes whose live bytes grew most since {@code before}, one per line. */
  String growthSince(RetainedHeap before, int top) {
    return largest.entrySet().stream()
        .sorted((a, b) -> Long.compare(grown(before, b), grown(before, a)))
        .limit(top)
        .map(e -> String.format("  %+,12d B %+,10d instances  %s", grown(before, e),
            e.getValue().instances() - before.largest.getOrDefault(e.getKey(), new ClassCount(0, 0)).instances(),
            e.getKey()))
        .collect(Collectors.joining("\n"));
  }

  private static long grown(RetainedHeap before, Map.Entry<String, ClassCount> e) {
    return e.getValue().bytes() - before.largest.getOrDefault(e.getKey(), new ClassCount(0, 0)).bytes();
  }
}
