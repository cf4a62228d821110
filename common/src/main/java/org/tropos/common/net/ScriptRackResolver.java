package org.tropos.common.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's ScriptBasedMapping: runs {@code script ip} and takes the first word it prints as the rack. A script
 * that fails, hangs past the timeout or prints no rack leaves the node on {@link #DEFAULT_RACK}, with a warning.
 * Called when a datanode registers, never on a hot path.
 */
public final class ScriptRackResolver implements RackResolver {
  private static final Logger LOG = LoggerFactory.getLogger(ScriptRackResolver.class);
  private static final long TIMEOUT_SECONDS = 10;

  private final Path script;

  public ScriptRackResolver(Path script) {
    this.script = script;
  }

  @Override
  public String resolve(String hostName, String ipAddress) {
    String name = ipAddress.isEmpty() ? hostName : ipAddress;
    try {
      Process process = new ProcessBuilder(script.toString(), name).redirectErrorStream(true).start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        LOG.warn("Topology script {} did not answer for {} within {}s; using {}", script, name, TIMEOUT_SECONDS,
            DEFAULT_RACK);
        return DEFAULT_RACK;
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      String rack = output.isEmpty() ? "" : output.split("\\s+")[0];
      if (process.exitValue() != 0 || !rack.startsWith("/")) {
        LOG.warn("Topology script {} gave no rack for {} (exit {}, output '{}'); using {}", script, name,
            process.exitValue(), output, DEFAULT_RACK);
        return DEFAULT_RACK;
      }
      return rack;
    } catch (IOException e) {
      LOG.warn("Topology script {} failed for {}: {}; using {}", script, name, e.toString(), DEFAULT_RACK);
      return DEFAULT_RACK;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return DEFAULT_RACK;
    }
  }
}
