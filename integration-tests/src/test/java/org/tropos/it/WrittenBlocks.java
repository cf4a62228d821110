package org.tropos.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.proto.hdds.ReplicationFactor;

/**
 * Random "keys" (1 MB blocks, RATIS/THREE) written straight through SCM and the pipelines, remembered with their
 * bytes, and read back through the zero-copy read path with every checksum verified.
 */
final class WrittenBlocks implements AutoCloseable {
  private static final int MB = 1 << 20;
  private static final BlockWriteSettings SETTINGS = new BlockWriteSettings(MB, MB / 4, 16 * 1024,
      4, 5, ReplicationFactor.THREE, Duration.ofSeconds(3));

  private final BlockClients blockClients = new BlockClients();
  private final Map<List<BlockLocation>, byte[]> written = new ConcurrentHashMap<>();

  /** Writes {@code keys} keys of 2 to 3 MB each. */
  void write(ScmBlockClient scm, int keys, long seed) throws IOException {
    Random random = new Random(seed);
    for (int k = 0; k < keys; k++) {
      byte[] data = new byte[2 * MB + random.nextInt(MB)];
      random.nextBytes(data);
      try (BlockWriter writer = blockClients.over(scm).newWriter(SETTINGS)) {
        writer.write(ByteBuffer.wrap(data));
        written.put(writer.finish(), data);
      }
    }
  }

  /** Reads every key back; an error if one cannot be read or differs from what was written. */
  void readAll(ScmBlockClient scm) throws IOException {
    for (Map.Entry<List<BlockLocation>, byte[]> key : written.entrySet()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      blockClients.over(scm).read(key.getKey(), verified -> {
        byte[] bytes = new byte[verified.remaining()];
        verified.get(bytes);
        out.writeBytes(bytes);
      });
      if (!Arrays.equals(key.getValue(), out.toByteArray())) {
        throw new IOException("a key read back differs from what was written");
      }
    }
  }

  /** Every block written. */
  List<BlockLocation> blocks() {
    return written.keySet().stream().flatMap(List::stream).toList();
  }

  @Override
  public void close() {
    blockClients.close();
  }
}
