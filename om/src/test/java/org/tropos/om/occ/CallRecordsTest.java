package org.tropos.om.occ;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.ManualClock;
import org.tropos.om.db.OmDb;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;

/**
 * OM HA's retry cache on a real RocksDB: a call sent again with the same id is answered from the record of its
 * first attempt and changes nothing; another call, or no call id, runs as usual; records go once old.
 */
class CallRecordsTest {
  @Test
  void aCallSentAgainIsAnsweredFromItsRecordAndAppliedOnce(@TempDir Path dir) throws Exception {
    ManualClock clock = new ManualClock();
    OccMetrics metrics = new OccMetrics();
    try (OmDb db = OmDb.open(dir.resolve("om.db"));
        Committer committer = new Committer("test", db, 16, metrics)) {
      committer.start();
      OccRunner runner = new OccRunner(db, ObjectIds.forTerm(db, 1), committer, clock, 5, metrics, true);
      Namespace namespace = new Namespace(runner, BucketLayout.OBJECT_STORE, ReplicationFactor.THREE);
      String call = "client-a:" + clock.wallTime().toEpochMilli() + ":1";
      VolumeInfo first;
      try (CallScope scope = CallScope.open(call)) {
        first = namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("u").build());
      }
      VolumeInfo again;
      try (CallScope scope = CallScope.open(call)) {
        // Without the record this would fail: the volume exists.
        again = namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("u").build());
      }
      assertEquals(first, again);
      assertEquals(1, metrics.answeredFromRecord());

      try (CallScope scope = CallScope.open("client-a:" + clock.wallTime().toEpochMilli() + ":2")) {
        OmException exists = assertThrows(OmException.class, () -> namespace.createVolume(VolumeInfo.newBuilder()
            .setName("vol1").setOwner("u").build()));
        assertEquals(OmResult.VOLUME_ALREADY_EXISTS, exists.result());
      }
      try (CallScope scope = CallScope.open("client-b:" + clock.wallTime().toEpochMilli() + ":1")) {
        namespace.deleteVolume("vol1");
      }
      try (CallScope scope = CallScope.open("client-b:" + clock.wallTime().toEpochMilli() + ":1")) {
        namespace.deleteVolume("vol1");
      }
      assertThrows(OmException.class, () -> namespace.getVolume("vol1"));
      assertEquals(2, metrics.answeredFromRecord());

      assertEquals(0, runner.purgeCallRecords(clock.wallTime().toEpochMilli() - 60_000));
      clock.advance(Duration.ofMinutes(11));
      assertEquals(2, runner.purgeCallRecords(clock.wallTime().minus(Duration.ofMinutes(10)).toEpochMilli()));
      try (CallScope scope = CallScope.open(call)) {
        namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("u").build());
      }
      assertEquals(2, metrics.answeredFromRecord());
    }
  }
}
