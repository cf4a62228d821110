package org.tropos.om.namespace;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Group;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.S3User;

/**
 * S3 identity policies, users and groups ({@link S3PolicyRows}, {@link S3Identities}), each operation one
 * optimistic transaction.
 *
 * <p>Thread-safe.
 */
public final class S3IdentityStore {
  /** The groups the OM maps a user to. */
  @FunctionalInterface
  public interface MappedGroups {
    Collection<String> of(String user);
  }

  private final OccRunner runner;

  S3IdentityStore(OccRunner runner) {
    this.runner = runner;
  }

  /** The documents of the policies that apply to {@code user}, a member of {@code groups} by the OM's mapping. */
  public List<String> policiesOf(String user, Set<String> groups) throws OmException {
    // Every access check asks; most callers have nothing attached, which a few point reads tell.
    if (!runner.anyRow(OmTable.S3_USERS, List.of(OmDbKeys.utf8(user))) && !runner.anyRow(OmTable.S3_GROUPS,
        groups.stream().map(OmDbKeys::utf8).toList())) {
      return List.of();
    }
    return runner.run("read the S3 policies of " + user, txn -> S3Identities.policiesOf(txn, user, groups));
  }

  public void putPolicy(S3Policy policy) throws OmException {
    runner.run("put S3 policy " + policy.getName(), txn -> {
      S3PolicyRows.put(txn, policy);
      return null;
    });
  }

  /** Deletes a policy that nothing is attached to. */
  public void deletePolicy(String name) throws OmException {
    runner.run("delete S3 policy " + name, txn -> {
      S3PolicyRows.delete(txn, name);
      if (S3Identities.attached(txn, name)) {
        throw new OmException(OmResult.S3_IDENTITY_IN_USE, "policy " + name + " is attached to users or groups:"
            + " detach it first");
      }
      return null;
    });
  }

  public List<S3Policy> policies() throws OmException {
    return runner.run("list S3 policies", S3PolicyRows::list);
  }

  public void attach(AttachS3PoliciesRequest r) throws OmException {
    runner.run((r.getDetach() ? "detach" : "attach") + " S3 policies " + r.getPoliciesList(), txn -> {
      S3Identities.attach(txn, r);
      return null;
    });
  }

  public S3Group changeGroup(ChangeS3GroupRequest r) throws OmException {
    return runner.run("change S3 group " + r.getName(), txn -> S3Identities.changeGroup(txn, r));
  }

  public List<S3Group> groups() throws OmException {
    return runner.run("list S3 groups", S3Identities::groups);
  }

  public void setEnabled(String user, boolean enabled) throws OmException {
    runner.run((enabled ? "enable" : "disable") + " S3 user " + user, txn -> {
      S3Identities.setEnabled(txn, user, enabled);
      return null;
    });
  }

  public void remove(String user) throws OmException {
    runner.run("remove S3 user " + user, txn -> {
      S3Identities.remove(txn, user);
      return null;
    });
  }

  /** S3 users ({@code only}: that one), with the policies that apply to each. */
  public List<S3User> users(String only, MappedGroups mapped) throws OmException {
    return runner.run("list S3 users", txn -> S3Identities.users(txn, only, mapped));
  }
}
