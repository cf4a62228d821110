package org.tropos.tools.cli;

import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.security.ServiceRole;
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
  @Mixin
  private BootstrapTokenOption bootstrap;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForDaemon();
    OmServer om = new OmServer(OmConfig.from(conf), SystemClock.INSTANCE, bootstrap.issuer(conf, ServiceRole.OM));
    om.start();
    return Daemons.runUntilStopped(om);
  }
}
