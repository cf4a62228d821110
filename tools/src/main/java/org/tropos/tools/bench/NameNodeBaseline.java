package org.tropos.tools.bench;

import java.nio.file.Path;
import org.apache.hadoop.hdfs.server.namenode.TroposNameNodeBench;
import org.tropos.common.util.Clock;

/**
 * The HDFS NameNode measured in the same run as the OM: (a) with NNThroughputBenchmark's own create operation
 * (files created and closed in one directory), (b) with the same calls it makes (create + complete, getFileInfo)
 * driven like the OM's mixed workload.
 */
final class NameNodeBaseline {
  private NameNodeBaseline() {
  }

  /** Operations per second (NNThroughputBenchmark reports only a rate). */
  static double creates(Path dir, int threads, int files) throws Exception {
    try (TroposNameNodeBench nn = TroposNameNodeBench.start(dir)) {
      return nn.createInOneDirectory(threads, files);
    }
  }

  /** Operations per second. */
  static double mixed(Clock clock, Path dir, int threads, int ops, int prefilled) throws Exception {
    try (TroposNameNodeBench nn = TroposNameNodeBench.start(dir)) {
      for (int j = 0; j < prefilled; j++) {
        nn.create("/dir/p" + j, "prefill");
      }
      ConcurrentOps.Result r = ConcurrentOps.run(clock, "bench-nn", threads, ops, i -> {
        if (i % 2 == 0) {
          nn.create("/dir/m" + i, "client-" + Thread.currentThread().getName());
        } else {
          nn.stat("/dir/p" + i % prefilled);
        }
      });
      return r.opsPerSec();
    }
  }
}
