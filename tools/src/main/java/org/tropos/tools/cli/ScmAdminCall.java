package org.tropos.tools.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A {@code tropos admin} command that makes calls to SCM's admin service and prints what they return. */
abstract class ScmAdminCall implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Spec
  CommandSpec spec;

  /** Returns the exit code. */
  abstract int run(ScmAdminClient scm, PrintWriter out) throws ScmException;

  @Override
  public Integer call() throws ScmException, IOException {
    try (ScmAdminClient scm = ScmAdminClient.connect(config.loadForClient())) {
      PrintWriter out = spec.commandLine().getOut();
      int code = run(scm, out);
      out.flush();
      return code;
    }
  }
}
