package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class TransitionTableTest {
  private enum Door { OPEN, SHUT, LOCKED, BROKEN }

  private static final TransitionTable<Door> DOORS = TransitionTable.of(Door.class, "door")
      .allow(Door.OPEN, Door.SHUT, Door.BROKEN)
      .allow(Door.SHUT, Door.OPEN, Door.LOCKED, Door.BROKEN)
      .allow(Door.LOCKED, Door.SHUT, Door.BROKEN)
      .build();

  @Test
  void listedMovesAndStayingPutAreAllowedNothingElse() {
    assertTrue(DOORS.allows(Door.SHUT, Door.LOCKED));
    assertTrue(DOORS.allows(Door.BROKEN, Door.BROKEN), "a repeated command");
    assertFalse(DOORS.allows(Door.OPEN, Door.LOCKED));
    assertFalse(DOORS.allows(Door.BROKEN, Door.OPEN));
    assertEquals(Set.of(Door.SHUT, Door.BROKEN), DOORS.next(Door.OPEN));
    DOORS.check("front", Door.LOCKED, Door.SHUT);
  }

  @Test
  void anIllegalMoveFailsNamingWhatMovedAndWhereItMayGo() {
    TransitionTable.IllegalTransitionException skipped = assertThrows(
        TransitionTable.IllegalTransitionException.class, () -> DOORS.check("front", Door.OPEN, Door.LOCKED));
    assertEquals("door front is OPEN and cannot become LOCKED (only [SHUT, BROKEN])", skipped.getMessage());
    TransitionTable.IllegalTransitionException fromFinal = assertThrows(
        TransitionTable.IllegalTransitionException.class, () -> DOORS.check("back", Door.BROKEN, Door.SHUT));
    assertEquals("door back is BROKEN and cannot become SHUT (it is final)", fromFinal.getMessage());
  }

  @Test
  void aBuiltTableCannotBeChanged() {
    assertThrows(UnsupportedOperationException.class, () -> DOORS.next(Door.OPEN).add(Door.LOCKED));
  }
}
