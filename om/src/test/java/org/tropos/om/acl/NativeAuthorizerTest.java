package org.tropos.om.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.AclGroup;
import org.tropos.proto.om.AclIdentity;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AclScope;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.VolumeInfo;

class NativeAuthorizerTest {
  private static final NativeAuthorizer AUTHORIZER = new NativeAuthorizer("s3v");
  private static final VolumeInfo VOLUME = VolumeInfo.newBuilder().setName("vol").setOwner("admin").build();
  private static final BucketInfo BUCKET = BucketInfo.newBuilder().setVolume("vol").setName("b").setOwner("alice")
      .build();
  private static final KeyInfo KEY = KeyInfo.newBuilder().setName("k").setOwner("alice").build();
  private static final Requester BOB = new Requester("bob", Set.of("analysts"), false, false);
  private static final Requester NOBODY = new Requester("", Set.of(), false, false);

  private static NativeAcl acl(AclIdentity identity, String name, AclScope scope, AclRight... rights) {
    return NativeAcl.newBuilder().setIdentity(identity).setName(name).setScope(scope).addAllRights(List.of(rights))
        .build();
  }

  private static Resource key(KeyInfo key) {
    return new Resource(VOLUME, BUCKET, key);
  }

  @Test
  void ownersOfTheTargetOrWhatHoldsItAndAdministratorsHoldEveryRight() {
    for (AclRight right : List.of(AclRight.RIGHT_READ, AclRight.RIGHT_DELETE, AclRight.RIGHT_WRITE_ACL)) {
      assertTrue(AUTHORIZER.allows(new Requester("alice", Set.of(), false, false), key(KEY), right));
      assertTrue(AUTHORIZER.allows(new Requester("admin", Set.of(), false, false), key(KEY), right),
          "the volume's owner");
      assertTrue(AUTHORIZER.allows(new Requester("root", Set.of(), true, false), key(KEY), right));
      assertFalse(AUTHORIZER.allows(BOB, key(KEY), right));
      assertFalse(AUTHORIZER.allows(NOBODY, key(KEY), right));
    }
  }

  @Test
  void aReadOnlyAdministratorReadsAndListsEverythingAndChangesNothing() {
    Requester reader = new Requester("dave", Set.of(), false, true);
    for (AclRight right : List.of(AclRight.RIGHT_READ, AclRight.RIGHT_LIST, AclRight.RIGHT_READ_ACL)) {
      assertTrue(AUTHORIZER.allows(reader, key(KEY), right));
      assertTrue(AUTHORIZER.allows(reader, Resource.of(VOLUME), right));
    }
    for (AclRight right : List.of(AclRight.RIGHT_WRITE, AclRight.RIGHT_CREATE, AclRight.RIGHT_DELETE,
        AclRight.RIGHT_WRITE_ACL)) {
      assertFalse(AUTHORIZER.allows(reader, key(KEY), right));
    }
  }

  @Test
  void anAccessEntryGrantsItsRightsToWhomItNamesAndADefaultEntryGrantsNothing() {
    KeyInfo toGroup = KEY.toBuilder().addAcls(acl(AclIdentity.IDENTITY_GROUP, "analysts", AclScope.SCOPE_ACCESS,
        AclRight.RIGHT_READ)).addAcls(acl(AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_DEFAULT,
            AclRight.RIGHT_ALL)).build();
    assertTrue(AUTHORIZER.allows(BOB, key(toGroup), AclRight.RIGHT_READ));
    assertFalse(AUTHORIZER.allows(BOB, key(toGroup), AclRight.RIGHT_DELETE));
    assertFalse(AUTHORIZER.allows(new Requester("carol", Set.of(), false, false), key(toGroup),
        AclRight.RIGHT_READ));

    KeyInfo toWorld = KEY.toBuilder().addAcls(acl(AclIdentity.IDENTITY_WORLD, "", AclScope.SCOPE_ACCESS,
        AclRight.RIGHT_ALL)).build();
    assertTrue(AUTHORIZER.allows(BOB, key(toWorld), AclRight.RIGHT_WRITE_ACL));
    assertFalse(AUTHORIZER.allows(NOBODY, key(toWorld), AclRight.RIGHT_READ), "the world is who has an identity");
    KeyInfo toAnonymous = KEY.toBuilder().addAcls(acl(AclIdentity.IDENTITY_ANONYMOUS, "", AclScope.SCOPE_ACCESS,
        AclRight.RIGHT_READ)).build();
    assertTrue(AUTHORIZER.allows(NOBODY, key(toAnonymous), AclRight.RIGHT_READ));
    assertFalse(AUTHORIZER.allows(BOB, key(toAnonymous), AclRight.RIGHT_READ));
  }

  @Test
  void s3AclsGrantWhatS3Grants() {
    BucketInfo publicReadWrite = BUCKET.toBuilder().setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE).build();
    Resource bucket = Resource.of(VOLUME, publicReadWrite);
    assertTrue(AUTHORIZER.allows(NOBODY, bucket, AclRight.RIGHT_LIST));
    assertTrue(AUTHORIZER.allows(NOBODY, bucket, AclRight.RIGHT_CREATE));
    assertFalse(AUTHORIZER.allows(NOBODY, bucket, AclRight.RIGHT_DELETE), "deleting a bucket is its owner's");
    assertFalse(AUTHORIZER.allows(NOBODY, bucket, AclRight.RIGHT_WRITE), "so are its settings");
    Resource keyInIt = new Resource(VOLUME, publicReadWrite, KEY);
    assertTrue(AUTHORIZER.allows(BOB, keyInIt, AclRight.RIGHT_DELETE), "the bucket's WRITE deletes its keys");
    assertFalse(AUTHORIZER.allows(BOB, keyInIt, AclRight.RIGHT_READ), "reading a key is the key's ACL's business");

    AclGrants readAcp = AclGrants.newBuilder().setGiven(true).addGrants(AclGrant.newBuilder().setUser("bob")
        .setPermission(AclPermission.ACL_READ_ACP)).build();
    Resource granted = key(KEY.toBuilder().setGrants(readAcp).build());
    assertTrue(AUTHORIZER.allows(BOB, granted, AclRight.RIGHT_READ_ACL));
    assertFalse(AUTHORIZER.allows(BOB, granted, AclRight.RIGHT_READ));
    AclGrants authenticated = AclGrants.newBuilder().setGiven(true).addGrants(AclGrant.newBuilder().setGroup(
        AclGroup.ACL_AUTHENTICATED_USERS).setPermission(AclPermission.ACL_READ)).build();
    Resource signedOnly = key(KEY.toBuilder().setGrants(authenticated).build());
    assertTrue(AUTHORIZER.allows(BOB, signedOnly, AclRight.RIGHT_READ));
    assertFalse(AUTHORIZER.allows(NOBODY, signedOnly, AclRight.RIGHT_READ));
  }

  @Test
  void everyUserButNobodyCreatesBucketsInTheS3VolumeAndNoOtherVolume() {
    Resource s3v = Resource.of(VolumeInfo.newBuilder().setName("s3v").setOwner("om").build());
    assertTrue(AUTHORIZER.allows(BOB, s3v, AclRight.RIGHT_CREATE));
    assertFalse(AUTHORIZER.allows(BOB, s3v, AclRight.RIGHT_LIST));
    assertFalse(AUTHORIZER.allows(NOBODY, s3v, AclRight.RIGHT_CREATE));
    assertFalse(AUTHORIZER.allows(BOB, Resource.of(VOLUME), AclRight.RIGHT_CREATE));
  }

  @Test
  void changesMergeRightsPerIdentityAndScopeAndInheritanceCopiesDefaults() throws OmException {
    NativeAcl bobRead = acl(AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ);
    NativeAcl bobList = acl(AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_LIST);
    List<NativeAcl> added = NativeAcls.changed(List.of(bobRead), AclChange.ACL_CHANGE_ADD, List.of(bobList));
    assertEquals(List.of(acl(AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ,
        AclRight.RIGHT_LIST)), added);
    assertEquals(List.of(bobList), NativeAcls.changed(added, AclChange.ACL_CHANGE_REMOVE, List.of(bobRead)));
    assertEquals(List.of(), NativeAcls.changed(added, AclChange.ACL_CHANGE_REMOVE, List.of(acl(
        AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_ALL))));
    NativeAcl all = acl(AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_ALL);
    assertFalse(NativeAcls.changed(List.of(all), AclChange.ACL_CHANGE_REMOVE, List.of(bobRead)).get(0)
        .getRightsList().contains(AclRight.RIGHT_READ), "removing from ALL leaves the other rights");
    assertThrows(OmException.class, () -> NativeAcls.changed(List.of(), AclChange.ACL_CHANGE_ADD, List.of(acl(
        AclIdentity.IDENTITY_WORLD, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ))));
    assertThrows(OmException.class, () -> NativeAcls.changed(List.of(), AclChange.ACL_CHANGE_ADD, List.of(acl(
        AclIdentity.IDENTITY_USER, "", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ))));

    NativeAcl worldDefault = acl(AclIdentity.IDENTITY_WORLD, "", AclScope.SCOPE_DEFAULT, AclRight.RIGHT_READ);
    NativeAcl worldAccess = worldDefault.toBuilder().setScope(AclScope.SCOPE_ACCESS).build();
    assertEquals(List.of(worldAccess), NativeAcls.inherited(List.of(bobRead, worldDefault), false));
    assertEquals(List.of(worldAccess, worldDefault), NativeAcls.inherited(List.of(bobRead, worldDefault), true));
  }
}
