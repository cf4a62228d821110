package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Group;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.S3User;

/** S3 policies, users and groups on a real RocksDB: memberships kept both ways, refusals that change nothing. */
class S3IdentityStoreTest {
  private static final String LIST = "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"s3:ListBucket\","
      + " \"Resource\": \"*\"}}";

  @TempDir
  Path dir;
  private OmTestStore om;
  private S3IdentityStore identities;

  @BeforeEach
  void open() throws Exception {
    om = new OmTestStore(dir);
    identities = om.namespace.identities();
  }

  @AfterEach
  void close() throws Exception {
    om.close();
  }

  private static OmResult failure(Executable e) {
    return assertThrows(OmException.class, e).result();
  }

  private static AttachS3PoliciesRequest.Builder attach(String... policies) {
    return AttachS3PoliciesRequest.newBuilder().addAllPolicies(List.of(policies));
  }

  private S3Group group(String name, List<String> add, List<String> remove, boolean delete) throws OmException {
    return identities.changeGroup(ChangeS3GroupRequest.newBuilder().setName(name).addAllAddMembers(add)
        .addAllRemoveMembers(remove).setDelete(delete).build());
  }

  private S3User user(String name) throws OmException {
    return identities.users(name, user -> Set.of()).get(0);
  }

  @Test
  void whatAppliesToAUserIsItsOwnPoliciesAndItsGroupsIncludingMappedOnes() throws Exception {
    identities.putPolicy(S3Policy.newBuilder().setName("list").setDocument(LIST).build());
    identities.attach(attach("readonly").setUser("alice").build());
    identities.attach(attach("list").setGroup("staff").build());
    identities.attach(attach("writeonly").setGroup("unix-ops").build());
    group("staff", List.of("alice", "bob"), List.of(), false);

    assertEquals(List.of(S3PolicyRows.BUILT_IN.get("readonly"), LIST), identities.policiesOf("alice", Set.of()));
    assertEquals(List.of(LIST, S3PolicyRows.BUILT_IN.get("writeonly")), identities.policiesOf("bob",
        Set.of("unix-ops")), "a group the OM maps bob to counts by its name");
    assertEquals(List.of(), identities.policiesOf("carol", Set.of("nobody-attached")));
    assertEquals(List.of("staff"), user("bob").getGroupsList());

    om.close();
    om = new OmTestStore(dir);
    identities = om.namespace.identities();
    assertEquals(List.of("readonly", "list"), identities.users("alice", u -> Set.of()).get(0)
        .getEffectivePoliciesList(), "kept across a restart");
  }

  @Test
  void refusalsChangeNothing() throws Exception {
    identities.putPolicy(S3Policy.newBuilder().setName("list").setDocument(LIST).build());
    identities.attach(attach("list").setUser("alice").build());
    assertEquals(OmResult.S3_IDENTITY_IN_USE, failure(() -> identities.deletePolicy("list")));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, failure(() -> identities.attach(attach("list", "missing")
        .setUser("bob").build())));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, failure(() -> identities.attach(attach("readonly").setUser("alice")
        .setDetach(true).build())));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> identities.putPolicy(S3Policy.newBuilder()
        .setName("has space").setDocument(LIST).build())));
    assertEquals(OmResult.MALFORMED_POLICY, failure(() -> identities.putPolicy(S3Policy.newBuilder()
        .setName("broken").setDocument("{\"Statement\": []}").build())));
    group("staff", List.of("alice"), List.of(), false);
    assertEquals(OmResult.S3_IDENTITY_IN_USE, failure(() -> group("staff", List.of(), List.of(), true)));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, failure(() -> group("staff", List.of(), List.of("bob"), false)));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, failure(() -> group("ghosts", List.of(), List.of(), true)));

    assertEquals(List.of("list"), user("alice").getPoliciesList());
    assertEquals(List.of("alice"), identities.groups().get(0).getMembersList());
    assertTrue(identities.users("", u -> Set.of()).stream().noneMatch(u -> u.getName().equals("bob")));
    assertEquals(4, identities.policies().size(), "three built in and one created");
  }

  @Test
  void removingAUserTakesItsSecretAttachmentsAndMembershipsAndDisablingKeepsThem() throws Exception {
    om.namespace.s3Secrets().get("alice", true);
    identities.attach(attach("readwrite").setUser("alice").build());
    group("staff", List.of("alice", "bob"), List.of(), false);
    identities.setEnabled("alice", false);
    assertEquals(OmResult.S3_SECRET_NOT_FOUND, failure(() -> om.namespace.s3Secrets().signingSecret("alice")));
    assertTrue(user("alice").getDisabled() && user("alice").getHasSecret());
    om.namespace.s3Secrets().revoke("alice");
    om.namespace.s3Secrets().get("alice", true);
    assertTrue(user("alice").getDisabled(), "a new secret does not undo what an administrator set");
    assertEquals(List.of("readwrite"), user("alice").getPoliciesList());
    identities.setEnabled("alice", true);
    assertFalse(om.namespace.s3Secrets().signingSecret("alice").isEmpty());

    identities.remove("alice");
    assertEquals(List.of("bob"), identities.groups().get(0).getMembersList());
    assertEquals(OmResult.S3_SECRET_NOT_FOUND, failure(() -> om.namespace.s3Secrets().get("alice", false)));
    assertEquals(List.of(), identities.policiesOf("alice", Set.of()));
    assertEquals(OmResult.S3_IDENTITY_NOT_FOUND, failure(() -> identities.remove("alice")));
    group("staff", List.of(), List.of("bob"), false);
    group("staff", List.of(), List.of(), true);
    assertEquals(List.of(), identities.groups());
  }
}
