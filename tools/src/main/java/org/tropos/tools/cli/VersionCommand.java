package org.tropos.tools.cli;

import java.util.concurrent.Callable;
import org.tropos.common.util.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tropos version}. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version.")
public final class VersionCommand implements Callable<Integer>, IVersionProvider {
  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() {
    for (String line : getVersion()) {
      spec.commandLine().getOut().println(line);
    }
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"Tropos " + VersionInfo.version(),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
  }
}
