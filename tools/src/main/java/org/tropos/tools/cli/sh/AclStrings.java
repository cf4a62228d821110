package org.tropos.tools.cli.sh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tropos.proto.om.AclIdentity;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AclScope;
import org.tropos.proto.om.NativeAcl;

/**
 * Native ACL entries as {@code ozone sh} writes them: {@code type:name:rights[scope]}, comma-separated, where type is
 * user, group, world or anonymous (the last two name nobody), rights are letters (r READ, w WRITE, c CREATE, l LIST,
 * d DELETE, x READ_ACL, y WRITE_ACL, a ALL, n NONE) and scope is ACCESS (the default) or DEFAULT.
 */
final class AclStrings {
  private static final String LETTERS = "rwcldxya";
  private static final List<AclRight> RIGHTS = List.of(AclRight.RIGHT_READ, AclRight.RIGHT_WRITE,
      AclRight.RIGHT_CREATE, AclRight.RIGHT_LIST, AclRight.RIGHT_DELETE, AclRight.RIGHT_READ_ACL,
      AclRight.RIGHT_WRITE_ACL, AclRight.RIGHT_ALL);

  private AclStrings() {
  }

  static List<NativeAcl> parse(String text) {
    List<NativeAcl> acls = new ArrayList<>();
    for (String entry : text.split(",")) {
      if (!entry.isBlank()) {
        acls.add(parseOne(entry.strip()));
      }
    }
    if (acls.isEmpty()) {
      throw new IllegalArgumentException("no ACL entry given: expected type:name:rights[scope], e.g. user:alice:rw");
    }
    return acls;
  }

  private static NativeAcl parseOne(String entry) {
    AclScope scope = AclScope.SCOPE_ACCESS;
    String body = entry;
    if (body.endsWith("]") && body.contains("[")) {
      String named = body.substring(body.lastIndexOf('[') + 1, body.length() - 1).toUpperCase(Locale.ROOT);
      scope = switch (named) {
        case "ACCESS" -> AclScope.SCOPE_ACCESS;
        case "DEFAULT" -> AclScope.SCOPE_DEFAULT;
        default -> throw new IllegalArgumentException("ACL scope " + named + " in '" + entry + "' is not ACCESS"
            + " or DEFAULT");
      };
      body = body.substring(0, body.lastIndexOf('['));
    }
    String[] parts = body.split(":", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("ACL entry '" + entry + "' is not type:name:rights[scope]");
    }
    AclIdentity identity = switch (parts[0].toLowerCase(Locale.ROOT)) {
      case "user" -> AclIdentity.IDENTITY_USER;
      case "group" -> AclIdentity.IDENTITY_GROUP;
      case "world" -> AclIdentity.IDENTITY_WORLD;
      case "anonymous" -> AclIdentity.IDENTITY_ANONYMOUS;
      default -> throw new IllegalArgumentException("ACL type '" + parts[0] + "' in '" + entry + "' is not user,"
          + " group, world or anonymous");
    };
    NativeAcl.Builder acl = NativeAcl.newBuilder().setIdentity(identity).setName(parts[1]).setScope(scope);
    for (char letter : parts[2].toCharArray()) {
      int at = LETTERS.indexOf(letter);
      if (letter != 'n' && at < 0) {
        throw new IllegalArgumentException("ACL right '" + letter + "' in '" + entry + "' is not one of " + LETTERS
            + "n");
      }
      if (at >= 0 && !acl.getRightsList().contains(RIGHTS.get(at))) {
        acl.addRights(RIGHTS.get(at));
      }
    }
    return acl.build();
  }

  /** One entry in the form {@link #parse} reads. */
  static String format(NativeAcl acl) {
    StringBuilder rights = new StringBuilder();
    for (AclRight right : acl.getRightsList()) {
      rights.append(LETTERS.charAt(RIGHTS.indexOf(right)));
    }
    String type = acl.getIdentity().name().substring("IDENTITY_".length()).toLowerCase(Locale.ROOT);
    return type + ":" + acl.getName() + ":" + (rights.length() == 0 ? "n" : rights) + "["
        + acl.getScope().name().substring("SCOPE_".length()) + "]";
  }
}
