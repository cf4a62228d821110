package org.tropos.tools.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tropos.common.util.SystemClock;
import org.tropos.scm.pipeline.PipelineLimits;
import org.tropos.scm.pipeline.PlacementSimulation;
import org.tropos.tools.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench placement}: fills simulated clusters with SCM's real placement policy and leader balancer
 * and prints how close each gets to the ideal ⌊Σ limits / 3⌋. Every cluster size also runs single-Raft
 * (limit 1, the seed's baseline) so the multi-Raft gain is a ratio measured in the same run.
 */
@Command(name = "placement", mixinStandardHelpOptions = true,
    description = {"Simulate pipeline placement on clusters of the given sizes: pipelines vs the ideal,",
        "pipelines and leaders per node, rack-rule violations, placement time per pipeline."})
public final class PlacementBenchmark implements Callable<Integer> {
  private static final String TABLE = "%6s %5s %5s %6s %9s %9s %7s %7s %9s %9s %8s %6s %6s %9s %s%n";

  @Option(names = "--nodes", split = ",", defaultValue = "12,100,1000",
      description = "Cluster sizes (default: 12,100,1000).")
  private List<Integer> sizes;

  @Option(names = "--limit", defaultValue = "3", description = "Fixed per-node limit M for the fixed runs (default 3).")
  private int limit;

  @Option(names = "--per-disk", defaultValue = "2",
      description = "Pipelines per RaftLog disk for the auto-limit runs (default 2).")
  private int perDisk;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the simulated clusters.")
  private long seed;

  @Option(names = "--json", description = "Print one JSON object per simulated cluster.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (!json) {
      out.printf(TABLE, "nodes", "racks", "limit", "disks", "pipelines", "ideal", "%ideal", "x1-raft", "pipes/node",
          "leaders/n", "before", "rackV", "prop", "us/pipe", "stopped by");
    }
    for (int nodes : sizes) {
      int racks = Math.max(2, Math.min(40, nodes / 25));
      PlacementSimulation.Result single = run(nodes, racks, 2, 2, new PipelineLimits(1, perDisk, 0));
      for (PlacementSimulation.Spec s : specs(nodes, racks)) {
        PlacementSimulation.Result r = new PlacementSimulation(s, SystemClock.INSTANCE).run();
        double gain = single.pipelines() == 0 ? 0 : (double) r.pipelines() / single.pipelines();
        out.print(json ? json(r, gain) : row(r, gain));
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  private List<PlacementSimulation.Spec> specs(int nodes, int racks) {
    List<PlacementSimulation.Spec> specs = new ArrayList<>();
    specs.add(new PlacementSimulation.Spec(nodes, racks, 1, 1, new PipelineLimits(1, perDisk, 0), seed));
    specs.add(new PlacementSimulation.Spec(nodes, racks, 2, 2, new PipelineLimits(limit, perDisk, 0), seed));
    specs.add(new PlacementSimulation.Spec(nodes, racks, 4, 4, new PipelineLimits(0, perDisk, 0), seed));
    specs.add(new PlacementSimulation.Spec(nodes, racks, 1, 12, new PipelineLimits(0, perDisk, 0), seed));
    return specs;
  }

  private PlacementSimulation.Result run(int nodes, int racks, int minDisks, int maxDisks, PipelineLimits limits) {
    return new PlacementSimulation(new PlacementSimulation.Spec(nodes, racks, minDisks, maxDisks, limits, seed),
        SystemClock.INSTANCE).run();
  }

  private static String row(PlacementSimulation.Result r, double gain) {
    PlacementSimulation.Spec s = r.spec();
    return String.format(Locale.ROOT, TABLE, s.nodes(), s.racks(), s.limits().isAuto() ? "auto" : s.limits().perNode(),
        s.minDisks() == s.maxDisks() ? Integer.toString(s.minDisks()) : s.minDisks() + "-" + s.maxDisks(),
        r.pipelines(), r.ideal(), String.format(Locale.ROOT, "%.1f", percentOfIdeal(r)),
        String.format(Locale.ROOT, "%.2f", gain), r.pipelinesPerNodeMin() + "-" + r.pipelinesPerNodeMax(),
        r.leadersPerNodeMin() + "-" + r.leadersPerNodeMax(),
        r.leadersBeforeBalancingMin() + "-" + r.leadersBeforeBalancingMax(), r.rackViolations(),
        r.proportionalToDisks() ? "yes" : "no", String.format(Locale.ROOT, "%.1f", r.placementMicrosPerPipeline()),
        r.stoppedBy());
  }

  private static String json(PlacementSimulation.Result r, double gain) {
    PlacementSimulation.Spec s = r.spec();
    return String.format(Locale.ROOT, "{\"nodes\":%d,\"racks\":%d,\"limit\":%d,\"perDisk\":%d,\"disksMin\":%d,"
        + "\"disksMax\":%d,\"pipelines\":%d,\"ideal\":%d,\"percentOfIdeal\":%.2f,\"gainOverSingleRaft\":%.3f,"
        + "\"pipelinesPerNodeMin\":%d,\"pipelinesPerNodeMax\":%d,\"leadersPerNodeMin\":%d,\"leadersPerNodeMax\":%d,"
        + "\"leadersBeforeBalancingMin\":%d,\"leadersBeforeBalancingMax\":%d,\"leaderTransfers\":%d,"
        + "\"rackViolations\":%d,\"unequalDisks\":%b,\"proportionalToDisks\":%b,\"maxShareDeviation\":%.3f,"
        + "\"placementMicrosPerPipeline\":%.2f,\"stoppedBy\":\"%s\"}%n",
        s.nodes(), s.racks(), s.limits().perNode(), s.limits().perDisk(), s.minDisks(), s.maxDisks(), r.pipelines(),
        r.ideal(), percentOfIdeal(r), gain, r.pipelinesPerNodeMin(), r.pipelinesPerNodeMax(), r.leadersPerNodeMin(),
        r.leadersPerNodeMax(), r.leadersBeforeBalancingMin(), r.leadersBeforeBalancingMax(), r.leaderTransfers(),
        r.rackViolations(), s.unequalDisks(), r.proportionalToDisks(), r.maxShareDeviation(),
        r.placementMicrosPerPipeline(), r.stoppedBy());
  }

  private static double percentOfIdeal(PlacementSimulation.Result r) {
    return r.ideal() == 0 ? 100 : 100.0 * r.pipelines() / r.ideal();
  }
}
