package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.ratis.RaftMember;

/** The Ratis settings of an OM's Raft server: Tropos's choices, and over them the ozone.om.ratis.raft.* keys. */
class OmRaftSettingsTest {
  @TempDir
  Path dir;

  private RaftProperties properties(Map<String, String> keys) {
    OmService.Node self = new OmService.Node("om1", new HostPort("127.0.0.1", 9862),
        new HostPort("127.0.0.1", 9872));
    OmService service = new OmService("omservice", List.of(self));
    OmHaConfig ha = OmHaConfig.from(Configuration.defaults().with(keys), service, self, dir);
    return RaftMember.properties(self.ratis().port(), dir, p -> OmRaftServer.settings(ha, p));
  }

  private static long millis(TimeDuration d) {
    return d.toLong(TimeUnit.MILLISECONDS);
  }

  @Test
  void withoutPassThroughKeysTroposChoicesStay() {
    RaftProperties p = properties(Map.of());
    assertEquals(RaftMember.ELECTION_TIMEOUT_MIN.toMillis(), millis(RaftServerConfigKeys.Rpc.timeoutMin(p)));
    assertEquals(RaftMember.ELECTION_TIMEOUT_MAX.toMillis(), millis(RaftServerConfigKeys.Rpc.timeoutMax(p)));
    assertFalse(RaftServerConfigKeys.Log.logMetadataEnabled(p), "no metadata entry after each commit");
    assertEquals(0, millis(RaftServerConfigKeys.Log.Appender.waitTimeMin(p)));
    assertEquals((long) Configuration.defaults().get(OmKeys.RATIS_SNAPSHOT_THRESHOLD),
        RaftServerConfigKeys.Snapshot.autoTriggerThreshold(p));
    assertTrue(RaftServerConfigKeys.Snapshot.autoTriggerEnabled(p));
  }

  @Test
  void passThroughKeysReachTheRaftPropertiesOverTroposChoices() {
    RaftProperties p = properties(Map.of("ozone.om.ratis.raft.server.rpc.timeout.min", "3s",
        "ozone.om.ratis.raft.server.rpc.timeout.max", "6s",
        "ozone.om.ratis.raft.server.log.appender.wait-time.min", "5ms",
        "ozone.om.ratis.raft.server.snapshot.auto.trigger.threshold", "1234",
        "hdds.ratis.raft.server.log.appender.wait-time.min", "7ms",
        "ozone.scm.ratis.raft.server.rpc.timeout.min", "9s"));
    assertEquals(3000, millis(RaftServerConfigKeys.Rpc.timeoutMin(p)), "the operator's election timeout wins");
    assertEquals(6000, millis(RaftServerConfigKeys.Rpc.timeoutMax(p)));
    assertEquals(5, millis(RaftServerConfigKeys.Log.Appender.waitTimeMin(p)), "not the datanodes' key");
    assertEquals(1234, RaftServerConfigKeys.Snapshot.autoTriggerThreshold(p), "over the OM's snapshot policy");
    assertFalse(RaftServerConfigKeys.Log.logMetadataEnabled(p), "what was not set stays Tropos's");
  }

  @Test
  void aShorterElectionTimeoutShortensTheLeaderLease() {
    assertEquals(RaftMember.LEASE, RaftMember.leaseOf(properties(Map.of())));
    assertEquals(Duration.ofMillis(270), RaftMember.leaseOf(properties(Map.of(
        "ozone.om.ratis.raft.server.rpc.timeout.min", "300ms", "ozone.om.ratis.raft.server.rpc.timeout.max",
        "600ms"))), "the lease stays inside the shortest election timeout");
  }
}
