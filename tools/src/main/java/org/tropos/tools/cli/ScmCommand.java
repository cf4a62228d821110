package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.RackResolvers;
import org.tropos.common.util.SystemClock;
import org.tropos.scm.ScmConfig;
import org.tropos.scm.ScmServer;
import org.tropos.scm.security.ScmCertificateAuthority;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tropos scm}: runs the Storage Container Manager in the foreground. */
@Command(name = "scm", mixinStandardHelpOptions = true,
    description = "Run the Storage Container Manager (stops cleanly on Ctrl-C or SIGTERM).")
public final class ScmCommand implements Callable<Integer> {
  @Mixin
  private ConfigOptions config;
  @Mixin
  private BootstrapTokenOption bootstrap;
  @Option(names = "--init", description = "Make SCM's database, the cluster's identity and (secure) its CA, print"
      + " them and exit, as Ozone's scm --init; nothing that exists is replaced.")
  private boolean init;
  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForDaemon();
    ScmConfig scmConfig = ScmConfig.from(conf);
    if (init) {
      String clusterId = ScmServer.initialize(scmConfig, SystemClock.INSTANCE, bootstrap.token());
      PrintWriter out = spec.commandLine().getOut();
      out.println("SCM initialized in " + scmConfig.dbDir() + ": cluster " + clusterId);
      if (scmConfig.security().enabled()) {
        out.println("CA certificate: " + scmConfig.security().dir().resolve(ScmCertificateAuthority.CA_FILE));
      }
      out.flush();
      return ExitCodes.OK;
    }
    ScmServer scm = new ScmServer(scmConfig, RackResolvers.fromConfig(conf), SystemClock.INSTANCE,
        bootstrap.token());
    scm.start();
    return Daemons.runUntilStopped(scm);
  }
}
