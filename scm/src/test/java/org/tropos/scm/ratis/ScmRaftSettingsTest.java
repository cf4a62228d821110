package org.tropos.scm.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.ratis.RaftMember;
import org.tropos.scm.ScmConfig;

/** The Ratis settings of an SCM's Raft server: Tropos's choices, and over them the ozone.scm.ratis.raft.* keys. */
class ScmRaftSettingsTest {
  private static final Map<String, String> HA = Map.of("ozone.scm.service.ids", "scmservice",
      "ozone.scm.nodes.scmservice", "scm1", "ozone.scm.address.scmservice.scm1", "127.0.0.1",
      "ozone.scm.node.id", "scm1");

  @TempDir
  Path dir;

  /** The properties an SCM configured with {@code keys} gives its Raft server, as ScmConfig reads them. */
  private RaftProperties properties(Map<String, String> keys) {
    Configuration conf = Configuration.defaults().with(HA).with(keys)
        .with("ozone.scm.db.dirs", dir.resolve("db").toString());
    ScmConfig.Ha ha = ScmConfig.from(conf).ha().orElseThrow();
    return RaftMember.properties(9894, dir, p -> ScmRaftServer.settings(ha.snapshots(), ha.ratisProperties(), p));
  }

  private static long millis(TimeDuration d) {
    return d.toLong(TimeUnit.MILLISECONDS);
  }

  @Test
  void withoutPassThroughKeysTroposChoicesStay() {
    RaftProperties p = properties(Map.of());
    assertEquals(RaftMember.ELECTION_TIMEOUT_MIN.toMillis(), millis(RaftServerConfigKeys.Rpc.timeoutMin(p)));
    assertEquals(RaftMember.ELECTION_TIMEOUT_MAX.toMillis(), millis(RaftServerConfigKeys.Rpc.timeoutMax(p)));
    assertFalse(RaftServerConfigKeys.Log.logMetadataEnabled(p));
    Configuration defaults = Configuration.defaults();
    assertEquals(defaults.get(ScmKeys.RATIS_SEGMENT_SIZE).bytes(), RaftServerConfigKeys.Log.segmentSizeMax(p)
        .getSize());
    assertEquals((long) defaults.get(ScmKeys.RATIS_SNAPSHOT_THRESHOLD),
        RaftServerConfigKeys.Snapshot.autoTriggerThreshold(p));
  }

  @Test
  void passThroughKeysReachTheRaftPropertiesOverTroposChoices() {
    RaftProperties p = properties(Map.of("ozone.scm.ratis.raft.server.rpc.timeout.min", "4s",
        "ozone.scm.ratis.raft.server.rpc.timeout.max", "8s",
        "ozone.scm.ratis.raft.server.log.segment.size.max", "3MB",
        "ozone.scm.ratis.raft.server.log.log-metadata.enabled", "true",
        "ozone.om.ratis.raft.server.rpc.timeout.min", "9s"));
    assertEquals(4000, millis(RaftServerConfigKeys.Rpc.timeoutMin(p)), "the operator's election timeout wins");
    assertEquals(8000, millis(RaftServerConfigKeys.Rpc.timeoutMax(p)));
    assertEquals(SizeInBytes.valueOf("3MB").getSize(), RaftServerConfigKeys.Log.segmentSizeMax(p).getSize(),
        "over the SCM's snapshot policy");
    assertTrue(RaftServerConfigKeys.Log.logMetadataEnabled(p), "over RaftMember's own choice");
  }
}
