package org.tropos.om.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tropos.om.acl.PosixPermissions.Access;
import org.tropos.om.acl.PosixPermissions.Path;

class PosixPermissionsTest {
  private static final Requester ALICE = new Requester("alice", Set.of("staff"), false, false);
  private static final Requester BOB = new Requester("bob", Set.of("staff"), false, false);
  private static final Requester CAROL = new Requester("carol", Set.of(), false, false);
  private static final Requester ROOT = new Requester("root", Set.of(), true, false);

  private static boolean allowed(Requester who, Path path, Access access) {
    return PosixPermissions.refusal(who, path, access).isEmpty();
  }

  @Test
  void bitsNeverSetRestrictNothing() {
    Path unset = new Path(List.of(new PosixMode("alice", "", 0)), new PosixMode("alice", "", 0));
    for (Access access : Access.values()) {
      assertTrue(allowed(CAROL, unset, access));
    }
  }

  @Test
  void aPrivateDirectoryClosesItselfAndWhatIsBelowToOthers() {
    PosixMode home = new PosixMode("alice", "staff", 0700);
    Path inside = new Path(List.of(home), new PosixMode("alice", "staff", 0644));
    assertTrue(allowed(ALICE, inside, Access.READ));
    assertEquals(Optional.of("EXECUTE (search) on a directory on the way, which alice owns"),
        PosixPermissions.refusal(BOB, inside, Access.READ));
    assertTrue(!allowed(BOB, inside, Access.TRAVERSE));
    assertTrue(allowed(ROOT, inside, Access.DELETE), "administrators are exempt");

    Path shared = new Path(List.of(new PosixMode("alice", "staff", 0750)), new PosixMode("alice", "staff", 0640));
    assertTrue(allowed(BOB, shared, Access.READ), "group staff reads");
    assertTrue(!allowed(BOB, shared, Access.CREATE), "but may not write the directory");
    assertTrue(!allowed(CAROL, shared, Access.TRAVERSE));
    Path listed = new Path(List.of(), new PosixMode("alice", "staff", 0711));
    assertTrue(!allowed(BOB, listed, Access.LIST), "search without read does not list");
  }

  @Test
  void underAStickyDirectoryOnlyTheOwnerOfAFileOrOfTheDirectoryDeletesIt() {
    PosixMode tmp = new PosixMode("root", "root", 01777);
    Path bobs = new Path(List.of(tmp), new PosixMode("bob", "staff", 0644));
    assertTrue(allowed(ALICE, bobs, Access.CREATE), "anyone creates in /tmp");
    assertTrue(allowed(BOB, bobs, Access.DELETE));
    assertTrue(!allowed(ALICE, bobs, Access.DELETE));
    assertTrue(allowed(new Requester("root", Set.of(), false, false), bobs, Access.DELETE), "the directory's owner");
    Path notSticky = new Path(List.of(new PosixMode("root", "root", 0777)), new PosixMode("bob", "staff", 0644));
    assertTrue(allowed(ALICE, notSticky, Access.DELETE));
  }
}
