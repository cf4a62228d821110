package org.tropos.it;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.tropos.client.TroposClient;

/**
 * Keys written and read while faults happen, through the Java client or any other {@link Store} (S3, the
 * FileSystem). A key counts as acknowledged once its write returned; its bytes are regenerated from its seed, so
 * nothing written is held in memory.
 */
final class KeyLoad {
  /** Where the keys go: a write returns once the key is acknowledged. */
  interface Store {
    void write(String name, byte[] data) throws Exception;

    InputStream open(String name) throws Exception;
  }

  private static final int MIN_SIZE = 64 * 1024;
  private static final int MAX_SIZE = 1536 * 1024;

  private final String prefix;
  private final Store store;
  private final int minSize;
  private final int maxSize;
  private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
  private final AtomicLong next = new AtomicLong();
  private final AtomicLong failedWrites = new AtomicLong();
  /** Why the first writes that failed did (the caller sees only the count otherwise). */
  private final List<String> writeFailures = new ArrayList<>();
  private static final int MAX_FAILURES_KEPT = 20;
  private final AtomicLong reads = new AtomicLong();
  private final List<String> failedReads = new ArrayList<>();

  /** Keys of 64 KiB to 1.5 MiB in a bucket, through the Java client. */
  KeyLoad(TroposClient client, String volume, String bucket) {
    this("key-", new Store() {
      @Override
      public void write(String name, byte[] data) throws Exception {
        try (OutputStream out = client.createKey(volume, bucket, name, data.length)) {
          out.write(data);
        }
      }

      @Override
      public InputStream open(String name) throws Exception {
        return client.readKey(volume, bucket, name);
      }
    }, MIN_SIZE, MAX_SIZE);
  }

  /** Keys named {@code prefix} and a number, of {@code minSize} to {@code maxSize} bytes, in {@code store}. */
  KeyLoad(String prefix, Store store, int minSize, int maxSize) {
    this.prefix = prefix;
    this.store = store;
    this.minSize = minSize;
    this.maxSize = maxSize;
  }

  /** Writes {@code count} keys, one after another; failed writes are counted, not retried. */
  void write(int count) {
    for (int i = 0; i < count; i++) {
      writeOne();
    }
  }

  /**
   * Writes keys until {@code stop} is set, about five a second: enough to have writes in flight at every moment of
   * a fault, few enough that healing afterwards is about the fault, not gigabytes written meanwhile.
   */
  Thread writeUntil(AtomicBoolean stop) {
    return start("key-writer", () -> {
      while (!stop.get()) {
        writeOne();
        try {
          Thread.sleep(200); // paces the writer: about five keys a second (see above)
        } catch (InterruptedException e) {
          return;
        }
      }
    });
  }

  /** Reads acknowledged keys at random until {@code stop} is set; a failed or different read is recorded. */
  Thread readUntil(AtomicBoolean stop) {
    return start("key-reader", () -> {
      while (!stop.get()) {
        List<String> names = new ArrayList<>(acknowledged.keySet());
        if (!names.isEmpty()) {
          readOne(names.get(ThreadLocalRandom.current().nextInt(names.size())));
        }
      }
    });
  }

  /** Reads every acknowledged key; the names of those that failed or differ. */
  List<String> readAll() {
    int before;
    synchronized (failedReads) {
      before = failedReads.size();
    }
    acknowledged.keySet().stream().sorted().forEach(this::readOne);
    synchronized (failedReads) {
      return List.copyOf(failedReads.subList(before, failedReads.size()));
    }
  }

  int acknowledgedCount() {
    return acknowledged.size();
  }

  /** Why the first writes that failed did. */
  List<String> writeFailures() {
    synchronized (writeFailures) {
      return List.copyOf(writeFailures);
    }
  }

  long failedWrites() {
    return failedWrites.get();
  }

  long reads() {
    return reads.get();
  }

  List<String> failedReads() {
    synchronized (failedReads) {
      return List.copyOf(failedReads);
    }
  }

  private void writeOne() {
    long seed = next.incrementAndGet();
    String name = prefix + seed;
    byte[] data = bytes(seed);
    try {
      store.write(name, data);
    } catch (Exception e) {
      failedWrites.incrementAndGet();
      synchronized (writeFailures) {
        if (writeFailures.size() < MAX_FAILURES_KEPT) {
          writeFailures.add(name + ": " + e);
        }
      }
      return;
    }
    acknowledged.put(name, seed);
  }

  private void readOne(String name) {
    byte[] read;
    try (InputStream in = store.open(name)) {
      read = in.readAllBytes();
    } catch (Exception e) {
      recordFailure(name + ": " + e);
      return;
    }
    reads.incrementAndGet();
    if (!Arrays.equals(bytes(acknowledged.get(name)), read)) {
      recordFailure(name + ": read back " + read.length + " bytes that differ from what was written");
    }
  }

  private void recordFailure(String what) {
    synchronized (failedReads) {
      failedReads.add(what);
    }
  }

  private byte[] bytes(long seed) {
    Random random = new Random(seed);
    byte[] data = new byte[minSize + random.nextInt(maxSize - minSize)];
    random.nextBytes(data);
    return data;
  }

  private static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
