package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;

/**
 * The writers of one client share ozone.client.write.buffer.budget: with a budget of a few chunks, many concurrent
 * writers (large keys, and small ones whose first buffer grows) all finish, each waiting for room only while it
 * holds nothing, and every key reads back whole.
 */
@Timeout(300)
class WriteBufferBudgetIT {
  private static final int KB = 1024;
  private static final int MB = 1024 * KB;
  private static final Map<String, String> SMALL_BUDGET = Map.of("ozone.scm.chunk.size", "1MB",
      "ozone.client.write.buffer.budget", "3MB");

  @TempDir
  Path dir;

  @Test
  void manyWritersFinishWithinABudgetOfAFewChunks() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, SMALL_BUDGET);
        TroposClient client = TroposClient.create(mini.clientConfig().with(SMALL_BUDGET))) {
      mini.awaitOpenPipelines(1);
      client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
      client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("bucket").build());
      List<byte[]> contents = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        // Every third key is large (ten chunks), the others smaller than a chunk, their buffer growing from 64 KB.
        byte[] data = new byte[i % 3 == 0 ? 10 * MB + i : 700 * KB + i];
        new Random(i).nextBytes(data);
        contents.add(data);
      }
      ExecutorService writers = Executors.newFixedThreadPool(12);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < contents.size(); i++) {
          int n = i;
          done.add(writers.submit(() -> {
            try (OutputStream out = client.createKey("vol", "bucket", "k" + n, contents.get(n).length)) {
              // Written in pieces, as a stream of a socket comes.
              for (int off = 0; off < contents.get(n).length; off += 100 * KB) {
                out.write(contents.get(n), off, Math.min(100 * KB, contents.get(n).length - off));
              }
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        writers.shutdownNow();
      }
      for (int i = 0; i < contents.size(); i++) {
        try (InputStream in = client.readKey("vol", "bucket", "k" + i)) {
          assertArrayEquals(contents.get(i), in.readAllBytes(), "k" + i);
        }
      }
    }
  }
}
