package org.tropos.tools.cli;

import java.util.concurrent.Callable;
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

  @Override
  public Integer call() throws Exception {
    S3Gateway gateway = new S3Gateway(config.loadForDaemon(), SystemClock.INSTANCE);
    gateway.start();
    return Daemons.runUntilStopped(gateway);
  }
}
