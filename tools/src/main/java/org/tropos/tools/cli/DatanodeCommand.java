package org.tropos.tools.cli;

import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.security.ServiceRole;
import org.tropos.datanode.DatanodeConfig;
import org.tropos.datanode.DatanodeServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tropos datanode}: runs a datanode in the foreground. */
@Command(name = "datanode", mixinStandardHelpOptions = true,
    description = "Run a datanode (stops cleanly on Ctrl-C or SIGTERM).")
public final class DatanodeCommand implements Callable<Integer> {
  @Mixin
  private ConfigOptions config;
  @Mixin
  private BootstrapTokenOption bootstrap;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForDaemon();
    DatanodeServer datanode = new DatanodeServer(DatanodeConfig.from(conf), bootstrap.issuer(conf,
        ServiceRole.DATANODE));
    datanode.start();
    return Daemons.runUntilStopped(datanode);
  }
}
