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
  /** Operations per second and latency, where measured (NNThroughputBenchmark reports only a rate). */
  record Result(double opsPerSec, double p50Ms, double p99Ms) {
  }

  private NameNodeBaseline() {
  }

  static Result creates(Path dir, int threads, int files) throws Exception {
    try (TroposNameNodeBench nn = TroposNameNodeBench.start(dir)) {
      return new Result(nn.createInOneDirectory(threads, files), Double.NaN, Double.NaN);
    }
  }

  static Result mixed(Clock clock, Path dir, int threads, int ops, int prefilled) throws Exception {
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
      return new Result(r.opsPerSec(), r.p50Ms(), r.p99Ms());
    }
  }
}
