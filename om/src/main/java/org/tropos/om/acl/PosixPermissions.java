package org.tropos.om.acl;

import java.util.List;
import java.util.Optional;

/**
 * HDFS's permission checks on a path of an FSO bucket, on top of the ACLs: they only narrow what the ACLs allow
 * (a {@code chmod 700} directory closes itself to others whatever its bucket grants, a sticky {@code /tmp} keeps
 * each user's files its own) and never widen it. Every directory on the way needs EXECUTE; a read READ on the file,
 * a listing READ and EXECUTE on the directory, a create or delete WRITE and EXECUTE on the parent, and under a
 * sticky parent a delete also ownership of the target or the parent. The OM's administrators are exempt (HDFS's
 * superuser), and a directory or file whose bits were never set restricts nothing.
 */
public final class PosixPermissions {
  /** What a request does to its path. */
  public enum Access {
    /** Reach the path (its status). */
    TRAVERSE,
    /** Read the file's data. */
    READ,
    /** List the directory. */
    LIST,
    /** Create the path in its parent. */
    CREATE,
    /** Delete the path from its parent, or rename it away. */
    DELETE
  }

  private PosixPermissions() {
  }

  /** Why {@code who} may not do {@code access} on {@code path}; empty when it may. */
  public static Optional<String> refusal(Requester who, Path path, Access access) {
    if (who.administrator()) {
      return Optional.empty();
    }
    List<PosixMode> ancestors = path.ancestors();
    for (PosixMode dir : ancestors) {
      if (dir.set() && !dir.allows(who, PosixMode.EXECUTE)) {
        return Optional.of("EXECUTE (search) on a directory on the way, which " + dir.owner() + " owns");
      }
    }
    PosixMode parent = ancestors.isEmpty() ? null : ancestors.get(ancestors.size() - 1);
    PosixMode target = path.target();
    return switch (access) {
      case TRAVERSE -> Optional.empty();
      case READ -> lacks(target, who, PosixMode.READ, "READ on the file");
      case LIST -> lacks(target, who, PosixMode.READ | PosixMode.EXECUTE, "READ and EXECUTE on the directory");
      case CREATE -> lacks(parent, who, PosixMode.WRITE | PosixMode.EXECUTE, "WRITE on the parent directory");
      case DELETE -> lacks(parent, who, PosixMode.WRITE | PosixMode.EXECUTE, "WRITE on the parent directory")
          .or(() -> parent != null && parent.sticky() && target != null && !who.user().equals(target.owner())
              && !who.user().equals(parent.owner()) ? Optional.of("ownership of what it deletes: its parent"
                  + " directory is sticky") : Optional.empty());
    };
  }

  private static Optional<String> lacks(PosixMode mode, Requester who, int wanted, String what) {
    return mode != null && mode.set() && !mode.allows(who, wanted) ? Optional.of(what) : Optional.empty();
  }

  /**
   * A path's directories that exist, from the bucket's root down (its parent last when the parent exists), and
   * the path itself when it exists (null otherwise).
   */
  public record Path(List<PosixMode> ancestors, PosixMode target) {
    public static final Path NONE = new Path(List.of(), null);

    public Path {
      ancestors = List.copyOf(ancestors);
    }
  }
}
