package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.client.internal.OmClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.BlockTokenIdentifier;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclIdentity;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AclScope;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;
import org.tropos.proto.om.db.SealedOpenKey;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.ScmResult;

/**
 * Authorization in a secure cluster, where callers are proven by their certificates. The OM enforces owners and
 * native ACLs on every request of the native path: a second user reads, lists, writes, deletes and renames nothing
 * of another's until an ACL grants it, and nothing a refused request asked for changed. SCM shows its views to
 * administrators and read-only administrators alone, and only administrators (users or groups) change anything.
 */
class AuthorizationIT {
  private static final byte[] DATA = "alice's data, not bob's".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static TroposClient admin;
  private static TroposClient alice;
  private static TroposClient bob;
  private static TroposClient carol;
  private static TroposClient dave;

  @BeforeAll
  static void start() throws Exception {
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true",
        "hadoop.user.group.static.mapping.overrides", "bob=analysts;carol=ops", "ozone.administrators.groups",
        "ops", "ozone.readonly.administrators", "dave"));
    mini.awaitOpenPipelines(1);
    admin = TroposClient.create(mini.clientConfig());
    alice = as("alice");
    bob = as("bob");
    carol = as("carol");
    dave = as("dave");
    admin.createVolume(VolumeInfo.newBuilder().setName("home").setOwner("alice").build());
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("private").build());
    write(alice, "private", "report");
  }

  @AfterAll
  static void stop() throws Exception {
    for (TroposClient client : new TroposClient[] {admin, alice, bob, carol, dave}) {
      if (client != null) {
        client.close();
      }
    }
    if (mini != null) {
      mini.close();
    }
  }

  private static TroposClient as(String user) throws Exception {
    // The header names root, an administrator: the certificate decides who calls.
    return TroposClient.create(confOf(user), "root");
  }

  private static Configuration confOf(String user) throws Exception {
    return mini.userConfig(user, dir);
  }

  private static ScmAdminClient scmAs(String user) throws Exception {
    return new ScmAdminClient(List.of(mini.scmClientAddress()), SecuritySettings.userTransport(confOf(user)));
  }

  private static void scmDenied(Executable call) {
    ScmException e = assertThrows(ScmException.class, call);
    assertEquals(ScmResult.PERMISSION_DENIED, e.result(), e.getMessage());
  }

  private static void write(TroposClient client, String bucket, String key) throws Exception {
    try (OutputStream out = client.createKey("home", bucket, key, DATA.length)) {
      out.write(DATA);
    }
  }

  private static byte[] read(TroposClient client, String bucket, String key) throws Exception {
    try (InputStream in = client.readKey("home", bucket, key)) {
      return in.readAllBytes();
    }
  }

  private static void denied(Executable call) {
    OmException e = assertThrows(OmException.class, call);
    assertEquals(OmResult.PERMISSION_DENIED, e.result(), e.getMessage());
  }

  private static NativeAcl acl(AclIdentity identity, String name, AclScope scope, AclRight... rights) {
    return NativeAcl.newBuilder().setIdentity(identity).setName(name).setScope(scope).addAllRights(List.of(rights))
        .build();
  }

  private static AclObject bucket(String name) {
    return AclObject.newBuilder().setType(AclObjectType.OBJECT_BUCKET).setVolume("home").setBucket(name).build();
  }

  private static AclObject key(String bucket, String name) {
    return AclObject.newBuilder().setType(AclObjectType.OBJECT_KEY).setVolume("home").setBucket(bucket)
        .setKey(name).build();
  }

  @Test
  void anotherUserDoesNothingWithoutAGrantAndChangesNothing() throws Exception {
    denied(() -> bob.createVolume(VolumeInfo.newBuilder().setName("bobs").setOwner("bob").build()));
    denied(() -> bob.getVolume("home"));
    denied(() -> bob.deleteVolume("home"));
    denied(() -> bob.getBucket("home", "private"));
    denied(() -> bob.createBucket(BucketInfo.newBuilder().setVolume("home").setName("bobs").build()));
    denied(() -> bob.listKeys("home", "private", "", "", 100));
    denied(() -> bob.lookupKey("home", "private", "report"));
    denied(() -> read(bob, "private", "report"));
    denied(() -> write(bob, "private", "report"));
    denied(() -> write(bob, "private", "planted"));
    denied(() -> bob.deleteKey("home", "private", "report", false));
    denied(() -> bob.renameKey("home", "private", "report", "stolen"));
    denied(() -> bob.deleteBucket("home", "private"));
    denied(() -> bob.getAcl(key("private", "report")));
    denied(() -> bob.changeAcl(key("private", "report"), AclChange.ACL_CHANGE_ADD, List.of(acl(
        AclIdentity.IDENTITY_USER, "bob", AclScope.SCOPE_ACCESS, AclRight.RIGHT_ALL))));
    denied(() -> bob.changeAcl(bucket("private"), AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_WORLD,
        "", AclScope.SCOPE_ACCESS, AclRight.RIGHT_ALL))));
    assertEquals(List.of(), bob.listBuckets("home", ""), "bob sees only the buckets he owns");

    assertArrayEquals(DATA, read(alice, "private", "report"), "the key is as alice wrote it");
    assertEquals(List.of("report"), alice.listKeys("home", "private", "", "", 100).getKeysList().stream()
        .map(k -> k.getName()).toList(), "nothing was planted, renamed or deleted");
    assertEquals(List.of(), alice.getAcl(key("private", "report")).getAclsList(), "no ACL was changed");
    assertEquals(List.of(), alice.getAcl(bucket("private")).getAclsList());

    List<String> audit = auditLines("om");
    assertTrue(audit.stream().anyMatch(l -> l.contains("| WARN  | user=bob | auth=CERTIFICATE | ip=")
        && l.contains("op=DeleteKey | resource={volume=home, bucket=private, key=report} | result=PERMISSION_DENIED")),
        "the refused delete is in the OM's audit log");
    assertTrue(audit.stream().anyMatch(l -> l.contains("user=bob") && l.contains("op=ChangeAcl")
        && l.contains("result=PERMISSION_DENIED")));
    assertTrue(audit.stream().anyMatch(l -> l.contains("| INFO  | user=alice | auth=CERTIFICATE")
        && l.contains("op=LookupKey | resource={volume=home, bucket=private, key=report} | result=OK")),
        "so are alice's reads");
  }

  /** The lines of a daemon's audit log (log4j2-test.xml writes them to target/audit). */
  private static List<String> auditLines(String daemon) throws java.io.IOException {
    return java.nio.file.Files.readAllLines(Path.of("target/audit", daemon + "-audit.log"));
  }

  @Test
  void grantsToAUserOrItsGroupOpenExactlyWhatTheyName() throws Exception {
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("team").build());
    write(alice, "team", "plan");
    alice.changeAcl(bucket("team"), AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_USER, "bob",
        AclScope.SCOPE_ACCESS, AclRight.RIGHT_LIST)));
    assertEquals(1, bob.listKeys("home", "team", "", "", 100).getKeysCount(), "LIST on the bucket lists its keys");
    denied(() -> read(bob, "team", "plan"));
    denied(() -> write(bob, "team", "more"));

    alice.changeAcl(key("team", "plan"), AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_GROUP,
        "analysts", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ)));
    assertArrayEquals(DATA, read(bob, "team", "plan"), "bob is in analysts (the static group mapping)");
    denied(() -> bob.deleteKey("home", "team", "plan", false));
    denied(() -> bob.changeAcl(key("team", "plan"), AclChange.ACL_CHANGE_SET, List.of()));

    alice.changeAcl(bucket("team"), AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_USER, "bob",
        AclScope.SCOPE_ACCESS, AclRight.RIGHT_CREATE)));
    try (OutputStream out = bob.createKey(OpenKeyRequest.newBuilder().setVolume("home").setBucket("team")
        .setKey("bobs-notes").setOwner("alice").setSize(DATA.length).build())) {
      out.write(DATA);
    }
    assertEquals("bob", alice.getKey("home", "team", "bobs-notes").getOwner(), "bob owns what he creates, whatever"
        + " owner he names");
    bob.deleteKey("home", "team", "bobs-notes", false);

    alice.changeAcl(key("team", "plan"), AclChange.ACL_CHANGE_REMOVE, List.of(acl(AclIdentity.IDENTITY_GROUP,
        "analysts", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ)));
    denied(() -> read(bob, "team", "plan"));
  }

  /**
   * A writer commits only what the OM gave it: the open key it was handed, unchanged, and blocks handed out to it,
   * shown by their WRITE tokens. Bob, who may create keys in a bucket, tries as an attacker would (raw calls, his
   * own certificate) to commit alice's blocks under a key of his own, which would get him READ tokens for them,
   * and to commit or extend an open key he rewrote; nothing is committed until he shows what he was given.
   */
  @Test
  void aWriterCommitsOnlyTheOpenKeyAndTheBlocksTheOmGaveIt() throws Exception {
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("inbox").build());
    alice.changeAcl(bucket("inbox"), AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_USER, "bob",
        AclScope.SCOPE_ACCESS, AclRight.RIGHT_CREATE, AclRight.RIGHT_READ)));
    KeyInfo report = admin.lookupKey("home", "private", "report").getKey();
    List<KeyBlock> alices = report.getBlocksList();
    try (OmClient raw = rawAs("bob"); OmClient carols = rawAs("carol")) {
      OpenKeyResponse open = raw.openKey(OpenKeyRequest.newBuilder().setVolume("home").setBucket("inbox")
          .setKey("loot").setSize(DATA.length).build());
      BlockToken own = open.getFirstBlock().getToken();
      BlockToken forged = BlockToken.newBuilder().setIdentifier(BlockTokenIdentifier.newBuilder().setOwner("bob")
          .setBlockId(alices.get(0).getBlockId()).addModes(AccessMode.ACCESS_WRITE)
          .setExpiryMs(System.currentTimeMillis() + 60_000).build().toByteString())
          .setSignature(ByteString.copyFrom(new byte[32])).build();
      BlockToken carolsToken = carols.openKey(OpenKeyRequest.newBuilder().setVolume("home").setBucket("private")
          .setKey("carols").setSize(DATA.length).build()).getFirstBlock().getToken();
      for (List<BlockToken> proofs : List.of(List.<BlockToken>of(), List.of(own), List.of(forged))) {
        denied(() -> raw.commitKey("home", "inbox", open, report.getSize(), alices, proofs, Map.of(), false));
        denied(() -> raw.createKey(OpenKeyRequest.newBuilder().setVolume("home").setBucket("inbox").setKey("loot2")
            .build(), report.getSize(), alices, proofs, Map.of()));
      }
      KeyBlock carolsBlock = KeyBlock.newBuilder().setBlockId(BlockTokenIdentifier.parseFrom(carolsToken.getIdentifier())
          .getBlockId()).setLength(DATA.length).build();
      denied(() -> raw.commitKey("home", "inbox", open, DATA.length, List.of(carolsBlock), List.of(carolsToken), Map.of(),
          false));

      KeyBlock mine = KeyBlock.newBuilder().setBlockId(open.getFirstBlock().getBlockId()).setLength(DATA.length)
          .build();
      SealedOpenKey sealed = SealedOpenKey.parseFrom(open.getOpenKey());
      OpenKeyRow planted = OpenKeyRow.parseFrom(sealed.getRow()).toBuilder().setPath("planted").setOwner("alice")
          .build();
      OpenKeyResponse rewritten = open.toBuilder().setOpenKey(sealed.toBuilder().setRow(planted.toByteString())
          .build().toByteString()).build();
      OpenKeyResponse unsealed = open.toBuilder().setOpenKey(SealedOpenKey.newBuilder()
          .setRow(planted.toByteString()).build().toByteString()).build();
      for (OpenKeyResponse changed : List.of(rewritten, unsealed)) {
        denied(() -> raw.commitKey("home", "inbox", changed, DATA.length, List.of(mine), List.of(own), Map.of(),
            false));
        denied(() -> raw.allocateBlock("home", "inbox", changed, DATA.length, ExcludeList.getDefaultInstance()));
      }
      assertEquals(List.of(), alice.listKeys("home", "inbox", "", "", 100).getKeysList(), "nothing was committed");
      assertArrayEquals(DATA, read(alice, "private", "report"));

      assertEquals("bob", raw.commitKey("home", "inbox", open, DATA.length, List.of(mine), List.of(own), Map.of(),
          false).getOwner(), "what the OM gave him, as given, commits");
      alice.deleteKey("home", "inbox", "loot", false);
    }
  }

  private static OmClient rawAs(String user) throws Exception {
    return new OmClient(List.of(mini.omAddress()), "root", false, SecuritySettings.userTransport(confOf(user)));
  }

  @Test
  void aBucketsDefaultEntriesAreInheritedByItsNewKeys() throws Exception {
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("shared").addAcls(acl(
        AclIdentity.IDENTITY_WORLD, "", AclScope.SCOPE_DEFAULT, AclRight.RIGHT_READ)).build());
    write(alice, "shared", "notice");
    assertEquals(List.of(acl(AclIdentity.IDENTITY_WORLD, "", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ)),
        alice.getAcl(key("shared", "notice")).getAclsList());
    assertArrayEquals(DATA, read(bob, "shared", "notice"));
    denied(() -> bob.listKeys("home", "shared", "", "", 100));
  }

  @Test
  void theOwnerOfAVolumeAndAnAdministratorGroupsMemberHoldEveryRight() throws Exception {
    carol.createVolume(VolumeInfo.newBuilder().setName("ops-" + System.nanoTime()).setOwner("carol").build());
    assertArrayEquals(DATA, read(carol, "private", "report"), "carol is in ops, an administrators' group");
    assertTrue(admin.getAcl(bucket("private")).getOwner().equals("alice"), "alice owns what she created");
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("scratch").build());
    write(alice, "scratch", "tmp");
    alice.deleteKey("home", "scratch", "tmp", false);
    alice.deleteBucket("home", "scratch");
  }

  @Test
  void scmShowsItsViewsToReadOnlyAdministratorsAndLetsOnlyAdministratorsChangeAnything() throws Exception {
    UUID pipeline;
    try (ScmAdminClient root = scmAs("root")) {
      pipeline = Uuids.fromProto(root.listPipelines(PipelineState.OPEN).get(0).getId().getId());
    }
    try (ScmAdminClient user = scmAs("bob")) {
      scmDenied(() -> user.listDatanodes(NodeState.NODE_STATE_UNSPECIFIED));
      scmDenied(() -> user.listPipelines(PipelineState.PIPELINE_STATE_UNSPECIFIED));
      scmDenied(() -> user.listContainers(ContainerState.CONTAINER_STATE_UNSPECIFIED,
          ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED, 0, 100));
      scmDenied(() -> user.replicationReport());
      scmDenied(() -> user.deactivatePipeline(pipeline));
    }
    try (ScmAdminClient reader = scmAs("dave")) {
      assertEquals(3, reader.listDatanodes(NodeState.NODE_STATE_UNSPECIFIED).size());
      assertTrue(reader.listPipelines(PipelineState.OPEN).stream().anyMatch(p -> Uuids.fromProto(p.getId().getId())
          .equals(pipeline)));
      reader.replicationReport();
      scmDenied(() -> reader.deactivatePipeline(pipeline));
      scmDenied(() -> reader.decommission(List.of("127.0.0.1")));
    }
    try (ScmAdminClient ops = scmAs("carol")) {
      assertEquals(PipelineState.DORMANT, ops.deactivatePipeline(pipeline).getState(), "carol is in ops");
      assertEquals(PipelineState.OPEN, ops.activatePipeline(pipeline).getState());
    }
    try (ScmAdminClient root = scmAs("root")) {
      assertTrue(root.listPipelines(PipelineState.OPEN).stream().anyMatch(p -> Uuids.fromProto(p.getId().getId())
          .equals(pipeline)), "the refused changes changed nothing");
    }
    List<String> audit = auditLines("scm");
    assertTrue(audit.stream().anyMatch(l -> l.contains("user=dave") && l.contains("op=DeactivatePipeline")
        && l.contains("result=PERMISSION_DENIED")), "SCM's audit log records the refusal");
    assertTrue(audit.stream().anyMatch(l -> l.contains("user=carol") && l.contains("op=DeactivatePipeline")
        && l.contains("result=OK")));
  }

  /**
   * A prefix ACL (Ozone's, set with {@code tropos sh prefix} as with {@code ozone sh prefix}): alice lets bob read,
   * create, list and delete under "drop/bob/" of a bucket he has no right in. He does exactly that there and nothing
   * elsewhere (not under "drop/bobby", not alice's keys); keys and directories made there inherit the prefix's
   * DEFAULT entries; once the ACL is gone he is refused again.
   */
  @Test
  void aPrefixAclGrantsOnTheKeysUnderItAndNothingElse() throws Exception {
    String conf = mini.clientConfDir(dir.resolve("prefix-cli")).toString();
    for (BucketLayout layout : List.of(BucketLayout.OBJECT_STORE, BucketLayout.FILE_SYSTEM_OPTIMIZED)) {
      String bucket = "drops-" + layout.getNumber();
      alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName(bucket).setLayout(layout).build());
      write(alice, bucket, "drop/alice/notes");
      AclObject bobs = AclObject.newBuilder().setType(AclObjectType.OBJECT_PREFIX).setVolume("home")
          .setBucket(bucket).setKey("drop/bob/").build();
      denied(() -> bob.changeAcl(bobs, AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_USER, "bob",
          AclScope.SCOPE_ACCESS, AclRight.RIGHT_ALL))));
      denied(() -> write(bob, bucket, "drop/bob/1"));
      TroposCli.run(0, "sh", "prefix", "addacl", "/home/" + bucket + "/drop/bob/", "-a",
          "user:bob:rcld,group:ops:r[DEFAULT]", "--conf", conf);
      TroposCli.run(1, "sh", "prefix", "addacl", "/home/" + bucket + "/drop/bob", "-a", "user:bob:r", "--conf",
          conf);

      write(bob, bucket, "drop/bob/sub/1");
      assertArrayEquals(DATA, read(bob, bucket, "drop/bob/sub/1"));
      assertEquals(List.of("drop/bob/sub/1"), bob.listKeys("home", bucket, "drop/bob/", "", 100).getKeysList()
          .stream().map(k -> k.getName()).filter(n -> !n.endsWith("/")).toList());
      assertEquals(List.of(acl(AclIdentity.IDENTITY_GROUP, "ops", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ)),
          alice.getAcl(key(bucket, "drop/bob/sub/1")).getAclsList(), "a key made under the prefix inherits its"
          + " DEFAULT entries");
      if (layout == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        assertEquals(List.of(acl(AclIdentity.IDENTITY_GROUP, "ops", AclScope.SCOPE_ACCESS, AclRight.RIGHT_READ)),
            alice.getAcl(key(bucket, "drop/bob/sub")).getAclsList(), "so does a directory");
      }
      denied(() -> bob.listKeys("home", bucket, "", "", 100));
      denied(() -> bob.listKeys("home", bucket, "drop/", "", 100));
      denied(() -> read(bob, bucket, "drop/alice/notes"));
      denied(() -> write(bob, bucket, "drop/bobby"));
      denied(() -> write(bob, bucket, "drop/alice/planted"));
      denied(() -> bob.deleteKey("home", bucket, "drop/alice/notes", false));
      denied(() -> bob.changeAcl(bobs, AclChange.ACL_CHANGE_ADD, List.of(acl(AclIdentity.IDENTITY_USER, "bob",
          AclScope.SCOPE_ACCESS, AclRight.RIGHT_WRITE_ACL))));
      String shown = TroposCli.run(0, "sh", "prefix", "getacl", "/home/" + bucket + "/drop/bob/", "--conf", conf);
      assertTrue(shown.contains("owner: alice") && shown.contains("user:bob:rcld[ACCESS]")
          && shown.contains("group:ops:r[DEFAULT]"), shown);
      bob.deleteKey("home", bucket, "drop/bob/sub/1", false);

      TroposCli.run(0, "sh", "prefix", "removeacl", "/home/" + bucket + "/drop/bob/", "-a",
          "user:bob:rcld,group:ops:r[DEFAULT]", "--conf", conf);
      assertEquals(List.of(), alice.getAcl(bobs).getAclsList());
      denied(() -> write(bob, bucket, "drop/bob/2"));
      denied(() -> bob.listKeys("home", bucket, "drop/bob/", "", 100));
      assertEquals(List.of("drop/alice/notes"), alice.listKeys("home", bucket, "drop/", "", 100).getKeysList()
          .stream().map(k -> k.getName()).filter(n -> !n.endsWith("/")).toList(), "nothing of alice's changed");
    }
  }

  @Test
  void theCommandLineShowsAndChangesNativeAclsAsOzoneShDoes() throws Exception {
    String conf = mini.clientConfDir(dir.resolve("root-cli")).toString();
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("cli").build());
    write(alice, "cli", "data");
    denied(() -> bob.listKeys("home", "cli", "", "", 100));
    TroposCli.run(0, "sh", "bucket", "addacl", "/home/cli", "-a", "user:bob:rl,group:analysts:r[DEFAULT]", "--conf",
        conf);
    assertEquals(1, bob.listKeys("home", "cli", "", "", 100).getKeysCount());
    String shown = TroposCli.run(0, "sh", "bucket", "getacl", "/home/cli", "--conf", conf);
    assertTrue(shown.contains("owner: alice") && shown.contains("user:bob:rl[ACCESS]")
        && shown.contains("group:analysts:r[DEFAULT]"), shown);
    TroposCli.run(1, "sh", "bucket", "setacl", "/home/cli", "-a", "world::q", "--conf", conf);
    TroposCli.run(0, "sh", "key", "addacl", "/home/cli/data", "-a", "user:bob:r", "--conf", conf);
    assertArrayEquals(DATA, read(bob, "cli", "data"));
    TroposCli.run(0, "sh", "bucket", "removeacl", "/home/cli", "-a", "user:bob:l", "--conf", conf);
    denied(() -> bob.listKeys("home", "cli", "", "", 100));
    assertTrue(TroposCli.run(0, "sh", "bucket", "getacl", "/home/cli", "--conf", conf).contains("user:bob:r[ACCESS]"),
        "the invalid entry changed nothing and removing LIST left READ");
  }

  /**
   * Hadoop's permission bits narrow what the ACLs allow in an FSO bucket: a directory chmod 700 is closed to
   * others, a sticky one keeps each user's files its own, and only the owner changes the bits (only an
   * administrator the owner).
   */
  @Test
  void posixBitsNarrowWhatTheAclsAllow() throws Exception {
    alice.createBucket(BucketInfo.newBuilder().setVolume("home").setName("hdfs").setLayout(BucketLayout
        .FILE_SYSTEM_OPTIMIZED).addAcls(acl(AclIdentity.IDENTITY_WORLD, "", AclScope.SCOPE_ACCESS, AclRight.RIGHT_ALL))
        .build());
    alice.createDirectory("home", "hdfs", "private");
    alice.createDirectory("home", "hdfs", "tmp");
    chmod(alice, "private", 0700);
    chmod(alice, "tmp", 01777);
    write(alice, "hdfs", "private/diary");
    write(alice, "hdfs", "tmp/alices");

    denied(() -> bob.listStatus("home", "hdfs", "private", "", 100));
    denied(() -> read(bob, "hdfs", "private/diary"));
    denied(() -> write(bob, "hdfs", "private/planted"));
    denied(() -> bob.deleteKey("home", "hdfs", "private/diary", false));
    denied(() -> chmod(bob, "private", 0777));
    denied(() -> bob.setFileAttributes(SetFileAttributesRequest.newBuilder().setVolume("home").setBucket("hdfs")
        .setPath("tmp/alices").setOwner("bob").build()));

    write(bob, "hdfs", "tmp/bobs");
    denied(() -> bob.deleteKey("home", "hdfs", "tmp/alices", false));
    denied(() -> dave.deleteKey("home", "hdfs", "tmp/bobs", false));
    bob.deleteKey("home", "hdfs", "tmp/bobs", false);
    assertArrayEquals(DATA, read(alice, "hdfs", "private/diary"), "nothing refused changed anything");
    assertArrayEquals(DATA, read(alice, "hdfs", "tmp/alices"));
    assertEquals(0700, alice.getFileStatus("home", "hdfs", "private").getPermission());
  }

  private static void chmod(TroposClient client, String path, int permission) throws Exception {
    client.setFileAttributes(SetFileAttributesRequest.newBuilder().setVolume("home").setBucket("hdfs").setPath(path)
        .setPermission(permission).build());
  }
}
