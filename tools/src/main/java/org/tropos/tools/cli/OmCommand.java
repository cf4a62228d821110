package org.tropos.tools.cli;

import java.util.concurrent.Callable;
import org.tropos.common.util.SystemClock;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tropos om}: runs the Ozone Manager in the foreground. */
@Command(name = "om", mixinStandardHelpOptions = true,
    description = "Run the Ozone Manager (stops cleanly on Ctrl-C or SIGTERM).")
public final class OmCommand implements Callable<Integer> {
  @Mixin
  private ConfigOptions config;

  @Override
  public Integer call() throws Exception {
    OmServer om = new OmServer(OmConfig.from(config.loadForDaemon()), SystemClock.INSTANCE);
    om.start();
    return Daemons.runUntilStopped(om);
  }
}
