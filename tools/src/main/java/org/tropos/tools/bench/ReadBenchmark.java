package org.tropos.tools.bench;

import java.io.File;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.read.BlockReadServer;
import org.tropos.datanode.read.BlockTransfer;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.tools.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench read}: one block served from page cache over loopback, in one run: the Tropos zero-copy
 * path (client verifying every checksum) against the kernel's own sendfile limit and against a copying server
 * path (file → heap → socket), with the server's CPU per GiB; {@code cat} of the file for reference.
 */
@Command(name = "read", mixinStandardHelpOptions = true,
    description = {"Read one block from page cache over loopback: zero-copy vs the kernel's sendfile limit and",
        "vs a copying server path; throughput and server CPU per GiB (HADOOP-2758)."})
public final class ReadBenchmark implements Callable<Integer> {
  private static final int CHUNK = 4 << 20;
  private static final double GIB = 1L << 30;

  @Option(names = "--size", defaultValue = "1GB", description = "Block size (default 1GB).")
  private String size;

  @Option(names = "--runs", defaultValue = "3", description = "Runs per path; the median is reported (default 3).")
  private int runs;

  @Option(names = "--bytes-per-checksum", defaultValue = "16KB", description = "Checksum piece (default 16KB).")
  private String bytesPerChecksum;

  @Option(names = "--dir", description = "Where to put the block (default: a temporary directory).")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON object.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  /** Throughput and server CPU of one path. */
  record Figures(double mbps, double cpuSecPerGib) {
  }

  @Override
  public Integer call() throws Exception {
    long bytes = DataSize.parse(size).bytes();
    int bpc = (int) DataSize.parse(bytesPerChecksum).bytes();
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-read")) {
      Path root = benchDir.path();
      VolumeSet volumes = new VolumeSet("bench", List.of(root.resolve("volume")), List.of(root.resolve("ratis")));
      volumes.createDirectories();
      volumes.format(UUID.randomUUID(), "CID-bench");
      try (ContainerStore store = new ContainerStore("bench", "CID-bench", volumes.dataVolumes())) {
        store.open();
        BlockId block = writeBlock(store, bytes, bpc);
        measure(store, block, bytes, store.planRead(block, 0, bytes).file());
      }
    }
    return ExitCodes.OK;
  }

  /** One way of reading the block, measured once per round. */
  private interface ReadPath {
    Sample readOnce() throws Exception;
  }

  /** One measured read: elapsed time and server CPU. */
  private record Sample(long elapsedNanos, long serverCpuNanos) {
  }

  /**
   * Runs every path once per round, in an order that rotates from round to round, so drift on a shared 2-core
   * machine falls on all paths alike; reports medians. The first round only warms up (page cache, JIT).
   */
  private void measure(ContainerStore store, BlockId block, long bytes, Path file) throws Exception {
    try (SendfileBaseline sendfile = new SendfileBaseline();
        BlockReadServer zeroCopy = server(store, BlockTransfer.ZERO_COPY);
        BlockReadServer copying = server(store, BlockTransfer.COPYING)) {
      List<ReadPath> paths = List.of(() -> cat(file), () -> sendfile(sendfile, file, bytes),
          () -> tropos(zeroCopy, block, bytes, BlockTransfer.ZERO_COPY),
          () -> tropos(copying, block, bytes, BlockTransfer.COPYING));
      List<List<Sample>> samples = new ArrayList<>();
      paths.forEach(p -> samples.add(new ArrayList<>()));
      for (int round = 0; round <= runs; round++) {
        for (int k = 0; k < paths.size(); k++) {
          int path = (k + round) % paths.size();
          Sample sample = paths.get(path).readOnce();
          if (round > 0) {
            samples.get(path).add(sample);
          }
        }
      }
      print(bytes, figures(samples.get(0), bytes), figures(samples.get(1), bytes), figures(samples.get(2), bytes),
          figures(samples.get(3), bytes));
    }
  }

  private static BlockReadServer server(ContainerStore store, BlockTransfer transfer) throws Exception {
    BlockReadServer server = new BlockReadServer(threadsOf(transfer), new HostPort("127.0.0.1", 0), store::planRead,
        transfer);
    server.start();
    return server;
  }

  private static String threadsOf(BlockTransfer transfer) {
    return "bench-" + transfer.name().toLowerCase(Locale.ROOT);
  }

  private static BlockId writeBlock(ContainerStore store, long bytes, int bpc) throws Exception {
    store.create(1, PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build());
    BlockId block = BlockId.newBuilder().setContainerId(1).setLocalId(1).build();
    byte[] chunk = new byte[CHUNK];
    Random random = new Random(1);
    ChecksumData all = ChecksumData.getDefaultInstance();
    for (long at = 0; at < bytes; at += CHUNK) {
      random.nextBytes(chunk);
      ByteBuffer data = ByteBuffer.wrap(chunk, 0, (int) Math.min(CHUNK, bytes - at)).slice();
      ChecksumData sums = Checksums.compute(data, bpc);
      store.writeChunk(block, at, data, sums);
      all = Checksums.concat(all, sums);
    }
    store.putBlock(BlockData.newBuilder().setBlockId(block).setLength(bytes).setChecksums(all).build());
    return block;
  }

  /** {@code cat file > /dev/null}: no socket, for reference. */
  private Sample cat(Path file) throws Exception {
    long start = clock.monotonicNanos();
    Process cat = new ProcessBuilder("cat", file.toString()).redirectOutput(new File("/dev/null")).start();
    check(cat.waitFor() == 0, "cat failed with exit " + cat.exitValue());
    return new Sample(clock.monotonicNanos() - start, -1);
  }

  private Sample sendfile(SendfileBaseline baseline, Path file, long bytes) throws Exception {
    long cpuBefore = ServerCpu.nanos(SendfileBaseline.THREAD_PREFIX);
    long start = clock.monotonicNanos();
    long received = baseline.streamOnce(file);
    long elapsed = clock.monotonicNanos() - start;
    check(received == bytes, "sendfile baseline received " + received + " of " + bytes + " bytes");
    return new Sample(elapsed, ServerCpu.nanos(SendfileBaseline.THREAD_PREFIX) - cpuBefore);
  }

  private Sample tropos(BlockReadServer server, BlockId block, long bytes, BlockTransfer transfer)
      throws Exception {
    long[] received = {0};
    long cpuBefore = ServerCpu.nanos(threadsOf(transfer));
    long start = clock.monotonicNanos();
    try (BlockReadClient client = new BlockReadClient(new HostPort("127.0.0.1", server.port()),
        Duration.ofSeconds(30))) {
      // The benchmark's own read server checks no token.
      client.read(block, 0, bytes, BlockToken.getDefaultInstance(), verified -> received[0] += verified.remaining());
    }
    long elapsed = clock.monotonicNanos() - start;
    check(received[0] == bytes, transfer + " read " + received[0] + " of " + bytes + " bytes");
    return new Sample(elapsed, ServerCpu.nanos(threadsOf(transfer)) - cpuBefore);
  }

  private static Figures figures(List<Sample> samples, long bytes) {
    List<Double> mbps = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    for (Sample s : samples) {
      mbps.add(mbPerSecond(bytes, s.elapsedNanos()));
      cpu.add(s.serverCpuNanos() < 0 ? Double.NaN : cpuSecPerGib(s.serverCpuNanos(), bytes));
    }
    return new Figures(median(mbps), median(cpu));
  }

  private void print(long bytes, Figures cat, Figures sendfile, Figures zeroCopy, Figures copying) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.printf(Locale.ROOT, "{\"sizeBytes\":%d,\"runs\":%d,\"catMBps\":%.1f,\"sendfileMBps\":%.1f,"
          + "\"zeroCopyMBps\":%.1f,\"copyingMBps\":%.1f,\"sendfileCpuSecPerGiB\":%.3f,\"zeroCopyCpuSecPerGiB\":%.3f,"
          + "\"copyingCpuSecPerGiB\":%.3f,\"zeroCopyVsSendfile\":%.3f,\"zeroCopyVsCopying\":%.3f,"
          + "\"cpuZeroCopyVsCopying\":%.3f,\"cpuSendfileVsCopying\":%.3f}%n", bytes, runs, cat.mbps(),
          sendfile.mbps(), zeroCopy.mbps(), copying.mbps(), sendfile.cpuSecPerGib(), zeroCopy.cpuSecPerGib(),
          copying.cpuSecPerGib(), zeroCopy.mbps() / sendfile.mbps(), zeroCopy.mbps() / copying.mbps(),
          zeroCopy.cpuSecPerGib() / copying.cpuSecPerGib(), sendfile.cpuSecPerGib() / copying.cpuSecPerGib());
    } else {
      out.printf(Locale.ROOT, "block %s from page cache, median of %d interleaved rounds%n", DataSize.ofBytes(bytes),
          runs);
      out.printf(Locale.ROOT, "%-38s %10s %12s %22s%n", "path", "MB/s", "vs sendfile", "server CPU s/GiB");
      row(out, "cat file > /dev/null (no socket)", cat, sendfile);
      row(out, "kernel sendfile, reader discards", sendfile, sendfile);
      row(out, "tropos zero-copy, client verifies", zeroCopy, sendfile);
      row(out, "copying path (heap), client verifies", copying, sendfile);
      out.printf(Locale.ROOT, "zero-copy / copying: %.2fx throughput, %.2fx server CPU per GiB%n",
          zeroCopy.mbps() / copying.mbps(), zeroCopy.cpuSecPerGib() / copying.cpuSecPerGib());
      // No server that sends with sendfile can use less CPU than the kernel's own sendfile loop: this is the floor.
      out.printf(Locale.ROOT, "floor: the kernel's sendfile alone uses %.2fx the copying path's server CPU per GiB%n",
          sendfile.cpuSecPerGib() / copying.cpuSecPerGib());
    }
    out.flush();
  }

  private static void row(PrintWriter out, String path, Figures f, Figures sendfile) {
    out.printf(Locale.ROOT, "%-38s %10.1f %11.2fx %22s%n", path, f.mbps(), f.mbps() / sendfile.mbps(),
        Double.isNaN(f.cpuSecPerGib()) ? "-" : String.format(Locale.ROOT, "%.3f", f.cpuSecPerGib()));
  }

  private static double mbPerSecond(long bytes, long nanos) {
    return bytes / 1e6 / (nanos / 1e9);
  }

  private static double cpuSecPerGib(long cpuNanos, long bytes) {
    return cpuNanos / 1e9 / (bytes / GIB);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Comparator.naturalOrder());
    return sorted.get(sorted.size() / 2);
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
