package org.tropos.om.occ;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.om.db.OmDb;

/** Object ids never repeat: across a single OM's restarts, and across the terms of an HA group's leaders. */
class ObjectIdsTest {
  @TempDir
  Path dir;

  @Test
  void aSingleOmContinuesAboveEveryIdItHandedOutAfterARestart() throws Exception {
    Set<Long> seen = new HashSet<>();
    try (OmDb db = OmDb.open(dir)) {
      ObjectIds ids = new ObjectIds(db);
      for (int i = 0; i < 10; i++) {
        assertTrue(seen.add(ids.next()));
      }
    }
    try (OmDb db = OmDb.open(dir)) {
      long after = new ObjectIds(db).next();
      assertTrue(seen.stream().allMatch(id -> id < after), "after a restart: " + after);
    }
  }

  @Test
  void eachTermOfAnHaGroupHasARangeOfItsOwnAboveASingleOmsIds() throws Exception {
    try (OmDb db = OmDb.open(dir)) {
      long single = new ObjectIds(db).next();
      ObjectIds leader = ObjectIds.forTerm(db, 1);
      long first = leader.next();
      assertEquals(1L << ObjectIds.TERM_SHIFT, first);
      assertTrue(first > single);
      leader.next();
      leader.startTerm(3);
      assertEquals(3L << ObjectIds.TERM_SHIFT, leader.next(), "a later term never meets an earlier one's ids");
      assertThrows(IllegalArgumentException.class, () -> leader.startTerm(0));
      assertThrows(IllegalStateException.class, () -> new ObjectIds(db).startTerm(2));
    }
  }
}
