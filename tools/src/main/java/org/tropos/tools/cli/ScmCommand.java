package org.tropos.tools.cli;

import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.RackResolvers;
import org.tropos.common.util.SystemClock;
import org.tropos.scm.ScmConfig;
import org.tropos.scm.ScmServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tropos scm}: runs the Storage Container Manager in the foreground. */
@Command(name = "scm", mixinStandardHelpOptions = true,
    description = "Run the Storage Container Manager (stops cleanly on Ctrl-C or SIGTERM).")
public final class ScmCommand implements Callable<Integer> {
  @Mixin
  private ConfigOptions config;
  @Mixin
  private BootstrapTokenOption bootstrap;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForDaemon();
    ScmServer scm = new ScmServer(ScmConfig.from(conf), RackResolvers.fromConfig(conf), SystemClock.INSTANCE,
        bootstrap.token());
    scm.start();
    return Daemons.runUntilStopped(scm);
  }
}
