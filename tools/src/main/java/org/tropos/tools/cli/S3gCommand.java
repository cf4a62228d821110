package org.tropos.tools.cli;

import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.util.SystemClock;
import org.tropos.s3.S3Gateway;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tropos s3g}: runs the S3 gateway in the foreground. */
@Command(name = "s3g", mixinStandardHelpOptions = true,
    description = "Run the S3 gateway (port 9878; stops cleanly on Ctrl-C or SIGTERM).")
public final class S3gCommand implements Callable<Integer> {
  @Mixin
  private ConfigOptions config;
  @Mixin
  private BootstrapTokenOption bootstrap;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForDaemon();
    S3Gateway gateway = new S3Gateway(conf, SystemClock.INSTANCE, bootstrap.issuer(conf, ServiceRole.S3G));
    gateway.start();
    return Daemons.runUntilStopped(gateway);
  }
}
