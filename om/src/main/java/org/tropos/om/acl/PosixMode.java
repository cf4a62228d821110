package org.tropos.om.acl;

/**
 * The owner, group and POSIX bits of a file or directory of an FSO bucket, as Hadoop's FileSystem sets them
 * ({@code chmod}, {@code chown}, the permission a file is created with). Bits never set (0) restrict nothing: the
 * file system shows its defaults for them, and the ACLs alone decide.
 */
public record PosixMode(String owner, String group, int permission) {
  static final int READ = 4;
  static final int WRITE = 2;
  static final int EXECUTE = 1;
  private static final int STICKY = 01000;

  boolean set() {
    return permission != 0;
  }

  boolean sticky() {
    return (permission & STICKY) != 0;
  }

  /** Whether the bits of the class {@code who} falls in (owner, group, others) hold every bit of {@code wanted}. */
  boolean allows(Requester who, int wanted) {
    int shift = who.user().equals(owner) ? 6 : who.groups().contains(group) ? 3 : 0;
    return ((permission >> shift) & wanted) == wanted;
  }
}
