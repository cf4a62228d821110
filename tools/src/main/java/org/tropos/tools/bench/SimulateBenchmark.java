package org.tropos.tools.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.util.SystemClock;
import org.tropos.om.simulation.NamespaceSimulation;
import org.tropos.scm.simulation.ControlPlaneSimulation;
import org.tropos.scm.simulation.PlantedFlaw;
import org.tropos.scm.simulation.SimulationSeeds;
import org.tropos.tools.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench simulate}: the soak of SCM's control plane or of the OM's namespace under their seeded
 * simulations (docs/design.md, "Proof machinery"). Runs many more seeds than the tests do and reports seeds/s; any
 * failing seed is printed with what failed and the events before it, and replays with
 * {@code --first-seed S --seeds 1}.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {"Run seeds of the simulated SCM control plane (real SCM managers, simulated datanodes, faults)",
        "or of the OM's namespace (real OM, colliding clients, failed writes, crashes) and check their",
        "invariants; prints seeds/s and the first failing seeds."})
public final class SimulateBenchmark implements Callable<Integer> {
  @Option(names = "--seeds", defaultValue = "10000", description = "Seeds to run (default 10000).")
  private long seeds;

  @Option(names = "--first-seed", defaultValue = "1", description = "The first seed (default 1).")
  private long firstSeed;

  @Option(names = "--threads", defaultValue = "2", description = "Threads running seeds (default 2).")
  private int threads;

  @Option(names = "--plant", defaultValue = "NONE",
      description = "A bug to plant, to see it found: ${COMPLETION-CANDIDATES} (default NONE).")
  private PlantedFlaw flaw;

  /** Which simulation runs. */
  enum Plane {
    /** SCM's control plane: nodes, pipelines, containers, replication. */
    SCM,
    /** The OM's optimistic namespace: concurrent requests, failed writes, crashes, a serial model. */
    OM
  }

  @Option(names = "--plane", defaultValue = "SCM",
      description = "What to simulate: ${COMPLETION-CANDIDATES} (default SCM).")
  private Plane plane;

  @Option(names = "--json", description = "Print one JSON object.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (seeds < 1 || threads < 1) {
      throw new ParameterException(spec.commandLine(), "--seeds and --threads must be >= 1");
    }
    if (plane == Plane.OM && flaw != PlantedFlaw.NONE) {
      throw new ParameterException(spec.commandLine(), "--plant applies to --plane SCM only");
    }
    // The managers log every pipeline, container, node and failed write they see: millions of lines in a soak.
    Configurator.setLevel("org.tropos.scm", Level.OFF);
    Configurator.setLevel("org.tropos.om", Level.OFF);
    SeedRuns.Report<? extends SeedRuns.Outcome> report = plane == Plane.SCM
        ? SimulationSeeds.run(firstSeed, seeds, threads, ControlPlaneSimulation.Schedule.DEFAULT, flaw,
            SystemClock.INSTANCE)
        : NamespaceSimulation.runSeeds(firstSeed, seeds, threads, NamespaceSimulation.PlantedFlaw.NONE,
            SystemClock.INSTANCE);
    String work = plane == Plane.SCM ? "acknowledgedBlocks" : "committedTransactions";
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.printf(Locale.ROOT, "{\"plane\":\"%s\",\"seeds\":%d,\"firstSeed\":%d,\"failed\":%d,\"seconds\":%.1f,"
          + "\"seedsPerSecond\":%.1f,\"%s\":%d,\"firstFailedSeed\":%s}%n", plane, report.seeds(), firstSeed,
          report.failed(), report.took().toMillis() / 1e3, report.seedsPerSecond(), work, report.work(),
          report.firstFailures().isEmpty() ? "null" : Long.toString(report.firstFailures().get(0).seed()));
    } else {
      out.printf(Locale.ROOT, "%s: %d seeds (%d to %d) in %.1f s: %.1f seeds/s on %d threads, %s %d, %d failed%n",
          plane, report.seeds(), firstSeed, firstSeed + seeds - 1, report.took().toMillis() / 1e3,
          report.seedsPerSecond(), threads, work, report.work(), report.failed());
      report.firstFailures().forEach(f -> out.println(f.failure()));
    }
    out.flush();
    return report.failed() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
  }
}
