package org.tropos.tools.cli.sh;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.tools.cli.ConfigOptions;
import org.tropos.tools.cli.ExitCodes;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** One {@code tropos sh} command: connects to the OM (the path's, else the configured one) and runs. */
abstract class ShCall implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Spec
  CommandSpec spec;

  /** The path the command works on (may name the OM). */
  abstract OzonePath path();

  abstract void run(TroposClient client, PrintWriter out) throws Exception;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForClient();
    OzonePath path = path();
    if (path.omAddress().isPresent()) {
      conf = conf.with(Map.of(OmKeys.ADDRESS.name(), path.omAddress().get()));
    }
    try (TroposClient client = TroposClient.create(conf)) {
      PrintWriter out = spec.commandLine().getOut();
      run(client, out);
      out.flush();
      return ExitCodes.OK;
    }
  }
}
