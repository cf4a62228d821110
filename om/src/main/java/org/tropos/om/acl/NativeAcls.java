package org.tropos.om.acl;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclIdentity;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AclScope;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;

/** Native ACL entries: which callers they name, what they grant, how they change and what a child inherits. */
public final class NativeAcls {
  private NativeAcls() {
  }

  /** Whether an ACCESS entry of {@code acls} naming {@code who} grants {@code right} (or ALL). */
  static boolean grant(List<NativeAcl> acls, Requester who, AclRight right) {
    for (NativeAcl acl : acls) {
      if (acl.getScope() == AclScope.SCOPE_ACCESS && names(acl, who)
          && (acl.getRightsList().contains(right) || acl.getRightsList().contains(AclRight.RIGHT_ALL))) {
        return true;
      }
    }
    return false;
  }

  private static boolean names(NativeAcl acl, Requester who) {
    return switch (acl.getIdentity()) {
      case IDENTITY_USER -> !who.anonymous() && acl.getName().equals(who.user());
      case IDENTITY_GROUP -> !who.anonymous() && who.groups().contains(acl.getName());
      case IDENTITY_WORLD -> !who.anonymous();
      case IDENTITY_ANONYMOUS -> who.anonymous();
      default -> false;
    };
  }

  /**
   * The entries a resource created in one with {@code parentAcls} starts with: the parent's DEFAULT entries, as
   * ACCESS entries and, when the new resource holds others in turn ({@code keepDefaults}: a bucket), also as DEFAULT.
   */
  public static List<NativeAcl> inherited(List<NativeAcl> parentAcls, boolean keepDefaults) {
    List<NativeAcl> acls = new ArrayList<>();
    for (NativeAcl acl : parentAcls) {
      if (acl.getScope() == AclScope.SCOPE_DEFAULT) {
        acls.add(acl.toBuilder().setScope(AclScope.SCOPE_ACCESS).build());
        if (keepDefaults) {
          acls.add(acl);
        }
      }
    }
    return acls;
  }

  /** The entries {@code change} of {@code given} makes of {@code current}; fails on a malformed entry. */
  public static List<NativeAcl> changed(List<NativeAcl> current, AclChange change, List<NativeAcl> given)
      throws OmException {
    checkAll(given);
    return switch (change) {
      case ACL_CHANGE_SET -> merged(List.of(), given, true);
      case ACL_CHANGE_ADD -> merged(current, given, true);
      case ACL_CHANGE_REMOVE -> merged(current, given, false);
      default -> throw new OmException(OmResult.INVALID_REQUEST, "an ACL change must set, add or remove entries");
    };
  }

  /** Checks the entries a request gives a new resource. */
  public static void checkAll(List<NativeAcl> acls) throws OmException {
    for (NativeAcl acl : acls) {
      check(acl);
    }
  }

  private static void check(NativeAcl acl) throws OmException {
    boolean named = acl.getIdentity() == AclIdentity.IDENTITY_USER || acl.getIdentity() == AclIdentity.IDENTITY_GROUP;
    boolean unnamed = acl.getIdentity() == AclIdentity.IDENTITY_WORLD
        || acl.getIdentity() == AclIdentity.IDENTITY_ANONYMOUS;
    if (!named && !unnamed) {
      throw new OmException(OmResult.INVALID_REQUEST, "an ACL entry names a user, a group, the world or anonymous"
          + " callers");
    }
    if (named == acl.getName().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, named ? "an ACL entry for a user or group names it"
          : "an ACL entry for the world or anonymous callers names nobody, not '" + acl.getName() + "'");
    }
    if (acl.getScope() == AclScope.UNRECOGNIZED || acl.getRightsList().contains(AclRight.ACL_RIGHT_UNSPECIFIED)
        || acl.getRightsList().contains(AclRight.UNRECOGNIZED)) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown ACL scope or right in " + acl);
    }
  }

  /** {@code current} with each entry of {@code given} added to (or, if not {@code add}, taken from) its match. */
  private static List<NativeAcl> merged(List<NativeAcl> current, List<NativeAcl> given, boolean add) {
    List<NativeAcl> result = new ArrayList<>(current);
    for (NativeAcl change : given) {
      int at = indexOf(result, change);
      Set<AclRight> rights = EnumSet.noneOf(AclRight.class);
      if (at >= 0) {
        rights.addAll(result.get(at).getRightsList());
      }
      if (add) {
        rights.addAll(change.getRightsList());
      } else {
        if (rights.remove(AclRight.RIGHT_ALL)) {
          rights.addAll(EnumSet.range(AclRight.RIGHT_READ, AclRight.RIGHT_WRITE_ACL));
        }
        change.getRightsList().forEach(rights::remove);
        if (change.getRightsList().contains(AclRight.RIGHT_ALL)) {
          rights.clear();
        }
      }
      NativeAcl entry = change.toBuilder().clearRights().addAllRights(rights).build();
      if (at < 0 && add) {
        result.add(entry);
      } else if (at >= 0 && !add && rights.isEmpty()) {
        result.remove(at);
      } else if (at >= 0) {
        result.set(at, entry);
      }
    }
    return result;
  }

  private static int indexOf(List<NativeAcl> acls, NativeAcl wanted) {
    for (int i = 0; i < acls.size(); i++) {
      NativeAcl acl = acls.get(i);
      if (acl.getIdentity() == wanted.getIdentity() && acl.getName().equals(wanted.getName())
          && acl.getScope() == wanted.getScope()) {
        return i;
      }
    }
    return -1;
  }
}
