package org.tropos.scm.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.proto.scm.db.PipelineRecord;
import org.tropos.scm.db.ScmDb;

class ContainerTableTest {
  private static final UUID PIPELINE_A = new UUID(0, 1);
  private static final UUID PIPELINE_B = new UUID(0, 2);

  @TempDir
  Path dir;

  @Test
  void eachPipelinesOpenContainersAreIndexedAcrossStateChangesAndReloads() throws Exception {
    try (ScmDb db = ScmDb.open(dir)) {
      ContainerTable table = new ContainerTable(db);
      table.load();
      ContainerRecord a1 = table.create(pipeline(PIPELINE_A));
      ContainerRecord a2 = table.create(pipeline(PIPELINE_A));
      ContainerRecord b1 = table.create(pipeline(PIPELINE_B));
      assertEquals(List.of(a1, a2), table.openOn(PIPELINE_A), "oldest first");
      assertEquals(List.of(b1), table.openOn(PIPELINE_B));

      table.save(a1.toBuilder().setState(ContainerState.CONTAINER_CLOSING).build());
      ContainerRecord fuller = a2.toBuilder().setAllocatedBytes(4096).build();
      table.keepInMemory(fuller);
      assertEquals(List.of(fuller), table.openOn(PIPELINE_A), "a CLOSING container leaves the index");
      table.forget(b1.getContainerId());
      assertTrue(table.openOn(PIPELINE_B).isEmpty());
      assertNull(table.get(b1.getContainerId()));
    }
    try (ScmDb db = ScmDb.open(dir)) {
      ContainerTable reloaded = new ContainerTable(db);
      reloaded.load();
      assertEquals(1, reloaded.openOn(PIPELINE_A).size());
      assertEquals(0, reloaded.openOn(PIPELINE_A).get(0).getAllocatedBytes(), "kept in memory only: not stored");
      assertEquals(ContainerState.CONTAINER_CLOSING, reloaded.get(1).getState());
      assertEquals(4, reloaded.create(pipeline(PIPELINE_B)).getContainerId(), "ids are never reused");
    }
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  /** A DEAD node's departure marks thousands of containers: stored as one change, kept across a reload. */
  @Test
  void manyContainersAreStoredAsOneChange() throws Exception {
    UUID node = new UUID(7, 7);
    try (ScmDb db = ScmDb.open(dir)) {
      ContainerTable table = new ContainerTable(db);
      table.load();
      ContainerRecord a = table.create(pipeline(PIPELINE_A));
      ContainerRecord b = table.create(pipeline(PIPELINE_B));
      table.saveAllQuietly(List.of(a.toBuilder().addDeparted(Uuids.toProto(node)).build(),
          b.toBuilder().addDeparted(Uuids.toProto(node)).build()));
      assertEquals(List.of(Uuids.toProto(node)), table.get(a.getContainerId()).getDepartedList());
    }
    try (ScmDb db = ScmDb.open(dir)) {
      ContainerTable reloaded = new ContainerTable(db);
      reloaded.load();
      assertEquals(List.of(Uuids.toProto(node)), reloaded.get(1).getDepartedList());
      assertEquals(List.of(Uuids.toProto(node)), reloaded.get(2).getDepartedList());
    }
  }

  private static PipelineRecord pipeline(UUID id) {
    return PipelineRecord.newBuilder().setId(PipelineId.newBuilder().setId(Uuids.toProto(id))).build();
  }
}
