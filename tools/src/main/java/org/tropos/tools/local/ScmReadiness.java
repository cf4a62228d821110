package org.tropos.tools.local;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.scm.ScmServer;

/**
 * Waits on a local cluster's SCMs, polling since they signal nothing: for one that serves, because an HA service
 * elects its leader a while after start and every daemon started after SCM (and every caller) needs the serving
 * one; and for pipelines to write to, because datanodes report their Raft groups only after they start.
 */
final class ScmReadiness {
  private static final Duration SCM_LEADER_WAIT = Duration.ofSeconds(60);

  private ScmReadiness() {
  }

  /** The first of {@code scms} (a stopped one is null) that serves, waiting for one while there is none. */
  static ScmServer serving(List<ScmServer> scms) {
    ScmServer[] serving = {null};
    try {
      Threads.awaitCondition("an SCM that serves", SCM_LEADER_WAIT, Duration.ofMillis(50), () -> {
        serving[0] = scms.stream().filter(s -> s != null && s.serving()).findFirst().orElse(null);
        return serving[0] != null;
      });
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("no SCM of the local cluster serves: " + e.getMessage(), e);
    }
    return serving[0];
  }

  /** Waits until the serving SCM (asked anew each time: the leader may change) can allocate a {@code factor} block. */
  static void awaitWritable(Supplier<ScmServer> scm, ReplicationFactor factor, Duration timeout) throws Exception {
    Threads.awaitCondition("OPEN RATIS/" + factor + " pipeline", timeout, Duration.ofMillis(100),
        () -> scm.get().containerManager().canAllocate(factor));
  }

  /** As {@link #awaitWritable}, but gives up, returning false, once the datanodes' volumes are found without room. */
  static boolean awaitWritableOrFull(Supplier<ScmServer> scm, ReplicationFactor factor, Duration timeout)
      throws Exception {
    Threads.awaitCondition("OPEN RATIS/" + factor + " pipeline or full datanodes", timeout, Duration.ofMillis(100),
        () -> scm.get().containerManager().canAllocate(factor) || scm.get().containerManager().shortOfRoom(factor));
    return scm.get().containerManager().canAllocate(factor);
  }
}
