package org.tropos.datanode.container;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bytes written to and read from each data volume ({@code datanode_volume_written_bytes_total{volume}},
 * {@code datanode_volume_read_bytes_total{volume}}), found by the file's path.
 */
public final class VolumeMeters {
  /** Counts nothing (stores in tests). */
  public static final VolumeMeters NONE = new VolumeMeters(new CompositeMeterRegistry(), List.of());

  private final Map<Path, Counter> written = new LinkedHashMap<>();
  private final Map<Path, Counter> read = new LinkedHashMap<>();

  public VolumeMeters(MeterRegistry registry, List<Path> volumes) {
    for (Path volume : volumes) {
      written.put(volume, Counter.builder("datanode.volume.written").baseUnit("bytes")
          .description("Chunk bytes written to the data volume.").tag("volume", volume.toString())
          .register(registry));
      read.put(volume, Counter.builder("datanode.volume.read").baseUnit("bytes")
          .description("Block bytes read from the data volume for clients and container copies.")
          .tag("volume", volume.toString()).register(registry));
    }
  }

  /** {@code bytes} were written to {@code file}. */
  public void written(Path file, long bytes) {
    count(written, file, bytes);
  }

  /** {@code bytes} of {@code file} are being read. */
  public void read(Path file, long bytes) {
    count(read, file, bytes);
  }

  private static void count(Map<Path, Counter> counters, Path file, long bytes) {
    for (Map.Entry<Path, Counter> volume : counters.entrySet()) {
      if (file.startsWith(volume.getKey())) {
        volume.getValue().increment(bytes);
        return;
      }
    }
  }
}
