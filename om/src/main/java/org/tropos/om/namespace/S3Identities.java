package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Group;
import org.tropos.proto.om.S3User;
import org.tropos.proto.om.db.S3GroupRow;
import org.tropos.proto.om.db.S3SecretRow;
import org.tropos.proto.om.db.S3UserRow;

/**
 * S3 users and groups and the policies attached to them ({@link S3PolicyRows}), as MinIO's {@code mc admin
 * user|group|policy} manage them. A group row lists its members and each member's row its groups, so that what
 * applies to a user is read from a handful of rows at every access check. A group's name also stands for the group
 * of that name the OM maps users to ({@code hadoop.security.group.mapping}): its policies apply to those users too.
 */
final class S3Identities {
  private S3Identities() {
  }

  /** The policy documents that apply to {@code user} (its own, then its groups'); a policy gone is skipped. */
  static List<String> policiesOf(Txn txn, String user, Set<String> mappedGroups) throws OmException {
    S3UserRow row = user.isEmpty() ? S3UserRow.getDefaultInstance() : userRow(txn, user).orElse(
        S3UserRow.getDefaultInstance());
    List<String> documents = new ArrayList<>();
    for (String name : attached(txn, row, mappedGroups)) {
      S3PolicyRows.document(txn, name).ifPresent(documents::add);
    }
    return documents;
  }

  /** The names of the policies attached to a user (its {@code row}) and to its groups and mapped groups. */
  private static Set<String> attached(Txn txn, S3UserRow row, Collection<String> mappedGroups)
      throws OmException {
    Set<String> names = new LinkedHashSet<>(row.getPoliciesList());
    Set<String> groups = new TreeSet<>(mappedGroups);
    groups.addAll(row.getGroupsList());
    for (String group : groups) {
      groupRow(txn, group).ifPresent(g -> names.addAll(g.getPoliciesList()));
    }
    return names;
  }

  /** Whether {@code user}'s S3 credentials are disabled. */
  static boolean disabled(Txn txn, String user) throws OmException {
    return userRow(txn, user).map(S3UserRow::getDisabled).orElse(false);
  }

  static void attach(Txn txn, AttachS3PoliciesRequest r) throws OmException {
    if (r.getPoliciesList().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "name at least one policy to attach or detach");
    }
    if (!r.getDetach()) {
      for (String policy : r.getPoliciesList()) {
        S3PolicyRows.requireForAttachment(txn, policy);
      }
    }
    if (r.hasUser()) {
      String user = checkName(r.getUser(), "a user");
      S3UserRow.Builder row = userRow(txn, user).orElse(S3UserRow.getDefaultInstance()).toBuilder();
      List<String> policies = changed(row.getPoliciesList(), r.getPoliciesList(), r.getDetach(), "user " + user);
      putUser(txn, user, row.clearPolicies().addAllPolicies(policies));
    } else if (r.hasGroup()) {
      String group = checkName(r.getGroup(), "a group");
      S3GroupRow.Builder row = groupRow(txn, group).orElse(S3GroupRow.getDefaultInstance()).toBuilder();
      List<String> policies = changed(row.getPoliciesList(), r.getPoliciesList(), r.getDetach(), "group " + group);
      putGroup(txn, group, row.clearPolicies().addAllPolicies(policies));
    } else {
      throw new OmException(OmResult.INVALID_REQUEST, "name the user or the group to attach policies to");
    }
  }

  /** {@code current} with {@code names} added, or removed (each must be attached) if {@code detach}. */
  private static List<String> changed(List<String> current, List<String> names, boolean detach, String whose)
      throws OmException {
    Set<String> result = new LinkedHashSet<>(current);
    for (String name : names) {
      if (detach && !result.remove(name)) {
        throw new OmException(OmResult.S3_IDENTITY_NOT_FOUND, "policy " + name + " is not attached to " + whose);
      }
      if (!detach) {
        result.add(name);
      }
    }
    return List.copyOf(result);
  }

  /** Whether policy {@code name} is attached to any user or group (read without recording: advice for a delete). */
  static boolean attached(Txn txn, String name) throws OmException {
    boolean[] found = {false};
    txn.scan(OmTable.S3_USERS, new byte[0], new byte[0], S3UserRow.parser(), (key, row) -> {
      found[0] |= row.getPoliciesList().contains(name);
      return !found[0];
    });
    txn.scan(OmTable.S3_GROUPS, new byte[0], new byte[0], S3GroupRow.parser(), (key, row) -> {
      found[0] |= row.getPoliciesList().contains(name);
      return !found[0];
    });
    return found[0];
  }

  static S3Group changeGroup(Txn txn, ChangeS3GroupRequest r) throws OmException {
    String group = checkName(r.getName(), "a group");
    Optional<S3GroupRow> stored = groupRow(txn, group);
    if (stored.isEmpty() && (r.getDelete() || r.getAddMembersList().isEmpty())) {
      throw new OmException(OmResult.S3_IDENTITY_NOT_FOUND, "no S3 group named " + group);
    }
    Set<String> members = new TreeSet<String>(stored.isPresent() ? stored.get().getMembersList() : List.of());
    for (String user : r.getRemoveMembersList()) {
      if (!members.remove(user)) {
        throw new OmException(OmResult.S3_IDENTITY_NOT_FOUND, "user " + user + " is not a member of " + group);
      }
      S3UserRow.Builder row = userRow(txn, user).orElse(S3UserRow.getDefaultInstance()).toBuilder();
      List<String> groups = new ArrayList<>(row.getGroupsList());
      groups.remove(group);
      putUser(txn, user, row.clearGroups().addAllGroups(groups));
    }
    for (String user : r.getAddMembersList()) {
      if (members.add(checkName(user, "a user"))) {
        S3UserRow row = userRow(txn, user).orElse(S3UserRow.getDefaultInstance());
        putUser(txn, user, row.toBuilder().addGroups(group));
      }
    }
    S3GroupRow.Builder row = stored.orElse(S3GroupRow.getDefaultInstance()).toBuilder().clearMembers()
        .addAllMembers(members);
    if (r.getDelete()) {
      if (!members.isEmpty()) {
        throw new OmException(OmResult.S3_IDENTITY_IN_USE, "group " + group + " still has members " + members
            + ": remove them first");
      }
      txn.delete(OmTable.S3_GROUPS, OmDbKeys.utf8(group));
    } else {
      txn.put(OmTable.S3_GROUPS, OmDbKeys.utf8(group), row.build());
    }
    return group(group, row.build());
  }

  static List<S3Group> groups(Txn txn) throws OmException {
    List<S3Group> groups = new ArrayList<>();
    txn.scan(OmTable.S3_GROUPS, new byte[0], new byte[0], S3GroupRow.parser(), (key, row) -> groups.add(
        group(OmDbKeys.name(key), row)));
    return groups;
  }

  static void setEnabled(Txn txn, String user, boolean enabled) throws OmException {
    checkName(user, "a user");
    S3UserRow row = userRow(txn, user).orElse(S3UserRow.getDefaultInstance());
    putUser(txn, user, row.toBuilder().setDisabled(!enabled));
  }

  /** Removes {@code user}'s secret, attachments and memberships; fails if it has none of them. */
  static void remove(Txn txn, String user) throws OmException {
    byte[] key = OmDbKeys.utf8(checkName(user, "a user"));
    Optional<S3UserRow> row = userRow(txn, user);
    boolean secret = txn.get(OmTable.S3_SECRETS, key, S3SecretRow.parser()).isPresent();
    if (row.isEmpty() && !secret) {
      throw new OmException(OmResult.S3_IDENTITY_NOT_FOUND, "no S3 user named " + user);
    }
    for (String group : row.<List<String>>map(S3UserRow::getGroupsList).orElse(List.of())) {
      Optional<S3GroupRow> g = groupRow(txn, group);
      if (g.isPresent()) {
        List<String> members = new ArrayList<>(g.get().getMembersList());
        members.remove(user);
        txn.put(OmTable.S3_GROUPS, OmDbKeys.utf8(group), g.get().toBuilder().clearMembers().addAllMembers(members)
            .build());
      }
    }
    txn.delete(OmTable.S3_USERS, key);
    txn.delete(OmTable.S3_SECRETS, key);
  }

  /** Users with a secret or a row ({@code only}: that user alone), with what applies to each. */
  static List<S3User> users(Txn txn, String only, S3IdentityStore.MappedGroups mapped) throws OmException {
    TreeMap<String, S3UserRow> rows = new TreeMap<>();
    Set<String> withSecret = new TreeSet<>();
    if (only.isEmpty()) {
      txn.scan(OmTable.S3_SECRETS, new byte[0], new byte[0], S3SecretRow.parser(), (key, row) -> withSecret.add(
          OmDbKeys.name(key)));
      txn.scan(OmTable.S3_USERS, new byte[0], new byte[0], S3UserRow.parser(), (key, row) -> {
        rows.put(OmDbKeys.name(key), row);
        return true;
      });
      withSecret.forEach(name -> rows.putIfAbsent(name, S3UserRow.getDefaultInstance()));
    } else {
      if (txn.get(OmTable.S3_SECRETS, OmDbKeys.utf8(only), S3SecretRow.parser()).isPresent()) {
        withSecret.add(only);
      }
      rows.put(only, userRow(txn, only).orElse(S3UserRow.getDefaultInstance()));
    }
    List<S3User> listed = new ArrayList<>();
    for (var entry : rows.entrySet()) {
      S3UserRow row = entry.getValue();
      listed.add(S3User.newBuilder().setName(entry.getKey()).setHasSecret(withSecret.contains(entry.getKey()))
          .setDisabled(row.getDisabled()).addAllPolicies(row.getPoliciesList()).addAllGroups(row.getGroupsList())
          .addAllEffectivePolicies(attached(txn, row, mapped.of(entry.getKey()))).build());
    }
    return listed;
  }

  private static S3Group group(String name, S3GroupRow row) {
    return S3Group.newBuilder().setName(name).addAllMembers(row.getMembersList()).addAllPolicies(
        row.getPoliciesList()).build();
  }

  private static Optional<S3UserRow> userRow(Txn txn, String user) throws OmException {
    return txn.get(OmTable.S3_USERS, OmDbKeys.utf8(user), S3UserRow.parser());
  }

  private static Optional<S3GroupRow> groupRow(Txn txn, String group) throws OmException {
    return txn.get(OmTable.S3_GROUPS, OmDbKeys.utf8(group), S3GroupRow.parser());
  }

  /** Writes a user's row, or deletes it when it holds nothing. */
  private static void putUser(Txn txn, String user, S3UserRow.Builder row) {
    byte[] key = OmDbKeys.utf8(user);
    if (row.getPoliciesCount() == 0 && row.getGroupsCount() == 0 && !row.getDisabled()) {
      txn.delete(OmTable.S3_USERS, key);
    } else {
      txn.put(OmTable.S3_USERS, key, row.build());
    }
  }

  private static void putGroup(Txn txn, String group, S3GroupRow.Builder row) {
    txn.put(OmTable.S3_GROUPS, OmDbKeys.utf8(group), row.build());
  }

  /** Users and groups are named as S3 access ids are: 1 to 256 characters, no spaces or control characters. */
  private static String checkName(String name, String what) throws OmException {
    if (name.isEmpty() || name.length() > 256 || name.chars().anyMatch(c -> c <= ' ')) {
      throw new OmException(OmResult.INVALID_REQUEST, what + " is named by 1 to 256 characters without spaces");
    }
    return name;
  }
}
