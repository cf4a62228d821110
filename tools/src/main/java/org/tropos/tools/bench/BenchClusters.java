package org.tropos.tools.bench;

import java.time.Duration;
import java.util.Map;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;

/** Local clusters for benchmarks: every port free (so they run beside tropos local), quick heartbeats. */
final class BenchClusters {
  /** Every port free, quick heartbeats and pipeline creation. */
  static final Map<String, String> FREE_PORTS = Map.ofEntries(Map.entry("ozone.scm.client.port", "0"),
      Map.entry("ozone.scm.datanode.port", "0"), Map.entry("ozone.scm.block.client.port", "0"),
      Map.entry("ozone.scm.http-address", "127.0.0.1:0"), Map.entry("hdds.container.ratis.ipc.port", "0"),
      Map.entry("hdds.container.ipc.port", "0"), Map.entry("ozone.om.port", "0"),
      Map.entry("ozone.om.http-address", "127.0.0.1:0"), Map.entry("ozone.s3g.http-address", "127.0.0.1:0"),
      Map.entry("ozone.s3g.https-address", "127.0.0.1:0"),
      Map.entry("ozone.s3g.webadmin.http-address", "127.0.0.1:0"),
      Map.entry("hdds.datanode.http-address", "127.0.0.1:0"),
      Map.entry("ozone.scm.https-address", "127.0.0.1:0"), Map.entry("ozone.om.https-address", "127.0.0.1:0"),
      Map.entry("ozone.s3g.webadmin.https-address", "127.0.0.1:0"),
      Map.entry("hdds.datanode.https-address", "127.0.0.1:0"),
      Map.entry("hdds.heartbeat.interval", "500ms"), Map.entry("ozone.scm.pipeline.creation.interval", "1s"));

  private BenchClusters() {
  }

  static Configuration config() {
    return Configuration.defaults().with(FREE_PORTS);
  }

  /** Waits until {@code expected} RATIS/THREE pipelines (what the benches write through) are open with a leader. */
  static void awaitPipelines(HostPort scmAdmin, int expected) throws Exception {
    try (ScmAdminClient admin = new ScmAdminClient(scmAdmin)) {
      Threads.awaitCondition(expected + " open RATIS/THREE pipelines", Duration.ofSeconds(60),
          Duration.ofMillis(200),
          () -> admin.listPipelines(PipelineState.OPEN).stream()
              .filter(p -> p.getFactor() == ReplicationFactor.THREE && p.hasLeader()).count() >= expected);
    }
  }
}
