package org.tropos.tools.bench;

import picocli.CommandLine.Command;

/** {@code tropos bench}: the canonical workloads, each measured against a baseline in the same run. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark.",
    subcommands = {PlacementBenchmark.class, ReadBenchmark.class, WriteBenchmark.class, OmBenchmark.class,
        S3Benchmark.class, FsBenchmark.class, RecoveryBenchmark.class, FailoverBenchmark.class, EcBenchmark.class,
        SimulateBenchmark.class})
public final class BenchCommand {
}
