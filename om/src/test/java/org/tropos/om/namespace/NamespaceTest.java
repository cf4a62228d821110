package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SealingKey;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.om.db.OmTable;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.AclIdentity;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AclScope;
import org.tropos.proto.om.BucketEncryption;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.ExpectedBucket;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DeletedKeyRow;
import org.tropos.proto.om.db.OpenKeyRow;
import org.tropos.proto.om.db.PrefixRow;

class NamespaceTest {
  private static final BucketDefaults FSO_THREE = new BucketDefaults(BucketLayout.FILE_SYSTEM_OPTIMIZED,
      ReplicationFactor.THREE);

  @TempDir
  Path dir;
  private OmTestStore om;

  @BeforeEach
  void open() throws Exception {
    om = new OmTestStore(dir);
    om.namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("alice").build());
    om.namespace.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("fso").build());
    om.namespace.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("flat")
        .setLayout(BucketLayout.OBJECT_STORE).setQuotaBytes(1000).build());
  }

  @AfterEach
  void close() throws Exception {
    om.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  static KeyInfo put(Namespace ns, String bucket, String key, long size, boolean createParents) throws OmException {
    return put(ns, "vol1", bucket, key, size, createParents);
  }

  static KeyInfo put(Namespace ns, String volume, String bucket, String key, long size, boolean createParents)
      throws OmException {
    OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key)
        .setCreateParents(createParents).build());
    CommitKeyRequest.Builder commit = CommitKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
        .setOpenId(open.getOpenId()).setOpenKey(open.toByteString()).setSize(size);
    if (size > 0) {
      commit.addBlocks(KeyBlock.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(1)
          .setLocalId(open.getOpenId())).setLength(size));
    }
    return ns.commitKey(commit.build());
  }

  private static OmResult failure(Executable e) {
    return assertThrows(OmException.class, e::run).result();
  }

  @FunctionalInterface
  interface Executable {
    void run() throws Exception;
  }

  /** A commit that opens its key too, as a small PUT to a leased block makes it. */
  private static CommitKeyRequest createdWithCommit(OpenKeyRequest open, long size) {
    return CommitKeyRequest.newBuilder().setVolume(open.getVolume()).setBucket(open.getBucket()).setOpen(open)
        .setSize(size).addBlocks(KeyBlock.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(1)
            .setLocalId(7)).setLength(size)).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"flat", "fso"})
  void aclGrantsAreKeptWithBucketsAndKeysAndAMalformedGrantChangesNothing(String bucket) throws Exception {
    Namespace ns = om.namespace;
    AclGrants toBob = AclGrants.newBuilder().setGiven(true).addGrants(AclGrant.newBuilder().setUser("bob")
        .setPermission(AclPermission.ACL_READ)).build();
    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName(bucket)
        .setAcl(CannedAcl.ACL_PRIVATE).setGrants(toBob).build());
    assertEquals(toBob, ns.getBucket("vol1", bucket).getGrants());
    ns.commitKey(createdWithCommit(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket).setKey("k")
        .setGrants(toBob).build(), 5));
    assertEquals(toBob, ns.lookupKey("vol1", bucket, "k").getGrants());

    AclGrants noGrantee = AclGrants.newBuilder().setGiven(true).addGrants(AclGrant.newBuilder()
        .setPermission(AclPermission.ACL_READ)).build();
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.setKeyAcl(SetKeyAclRequest.newBuilder()
        .setVolume("vol1").setBucket(bucket).setKey("k").setGrants(noGrantee).build())));
    assertEquals(toBob, ns.lookupKey("vol1", bucket, "k").getGrants());
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.setBucketProperties(SetBucketPropertiesRequest
        .newBuilder().setVolume("vol1").setName(bucket).setGrants(AclGrants.newBuilder().setGiven(true)).build())),
        "grants without the canned ACL they replace");
    assertEquals(toBob, ns.getBucket("vol1", bucket).getGrants());

    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName(bucket)
        .setAcl(CannedAcl.ACL_PUBLIC_READ).build());
    assertEquals(AclGrants.getDefaultInstance(), ns.getBucket("vol1", bucket).getGrants(),
        "a canned ACL set alone replaces the grants");
  }

  @ParameterizedTest
  @ValueSource(strings = {"flat", "fso"})
  void aKeyOpenedWithItsCommitIsCheckedAsAnOpenedKeyIsAtOpenAndAtCommit(String bucket) throws Exception {
    Namespace ns = om.namespace;
    BucketInfo info = ns.getBucket("vol1", bucket);
    OpenKeyRequest open = OpenKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket).setKey("d/k")
        .setCreateParents(true).setNoOverwrite(true).putMetadata("Content-Type", "text/plain")
        .setExpectedBucket(ExpectedBucket.newBuilder().setObjectId(info.getObjectId()).setOwner(info.getOwner())
            .setAcl(info.getAcl())).build();
    KeyInfo created = ns.commitKey(createdWithCommit(open, 5));
    assertEquals(5, ns.lookupKey("vol1", bucket, "d/k").getSize());
    assertEquals("text/plain", created.getMetadataMap().get("Content-Type"));
    // What OpenKey checks, and what the commit checks, both hold for a key opened with its commit.
    assertEquals(OmResult.FILE_ALREADY_EXISTS, failure(() -> ns.commitKey(createdWithCommit(open, 3))));
    assertEquals(5, ns.lookupKey("vol1", bucket, "d/k").getSize());
    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName(bucket)
        .setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE).build());
    OpenKeyRequest overwrite = open.toBuilder().setNoOverwrite(false).build();
    assertEquals(OmResult.BUCKET_CHANGED, failure(() -> ns.commitKey(createdWithCommit(overwrite, 3))));
    assertEquals(5, ns.lookupKey("vol1", bucket, "d/k").getSize());
    assertEquals(3, ns.commitKey(createdWithCommit(overwrite.toBuilder().clearExpectedBucket().build(), 3))
        .getSize());
    assertEquals(3, ns.lookupKey("vol1", bucket, "d/k").getSize());
  }

  @Test
  void aKeyOpenedWithItsCommitIsCommittedToTheBucketItIsOpenedInAndNowhereElse() {
    Namespace ns = om.namespace;
    OpenKeyRequest open = OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("flat").setKey("k").build();
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.commitKey(createdWithCommit(open, 5).toBuilder()
        .setBucket("fso").build())));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.commitKey(createdWithCommit(open, 5).toBuilder()
        .setRecommit(true).build())));
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.lookupKey("vol1", "flat", "k")));
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.lookupKey("vol1", "fso", "k")));
  }

  @Test
  void anOpenKeyExpectingAnotherBucketThanTheOneNamedIsRefused() throws Exception {
    Namespace ns = om.namespace;
    BucketInfo flat = ns.getBucket("vol1", "flat");
    ExpectedBucket seen = ExpectedBucket.newBuilder().setObjectId(flat.getObjectId()).setOwner(flat.getOwner())
        .setAcl(flat.getAcl()).build();
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("flat").setKey("k")
        .setExpectedBucket(seen);
    assertEquals("k", ns.openKey(open.build()).getPath());
    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName("flat")
        .setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE).build());
    assertEquals(OmResult.BUCKET_CHANGED, failure(() -> ns.openKey(open.build())));
    assertEquals(OmResult.BUCKET_CHANGED, failure(() -> ns.openKey(open.setExpectedBucket(seen.toBuilder()
        .setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE).setOwner("mallory")).build())));
    assertEquals(OmResult.BUCKET_CHANGED, failure(() -> ns.openKey(open.setExpectedBucket(seen.toBuilder()
        .setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE).setObjectId(flat.getObjectId() + 1)).build())));
    assertEquals("k", ns.openKey(open.setExpectedBucket(seen.toBuilder().setAcl(CannedAcl.ACL_PUBLIC_READ_WRITE))
        .build()).getPath());
    assertEquals(OmResult.BUCKET_NOT_FOUND, failure(() -> ns.openKey(open.setBucket("gone").build())));
  }

  @Test
  void volumesAndBucketsRefuseDuplicatesBadNamesAndNonEmptyDeletes() throws Exception {
    Namespace ns = om.namespace;
    assertEquals(OmResult.VOLUME_ALREADY_EXISTS, failure(() -> ns.createVolume(VolumeInfo.newBuilder()
        .setName("vol1").build())));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.createVolume(VolumeInfo.newBuilder()
        .setName("Bad_Name").build())));
    assertEquals(OmResult.VOLUME_NOT_FOUND, failure(() -> ns.createBucket(BucketInfo.newBuilder()
        .setVolume("nope").setName("bk1").build())));
    assertEquals(OmResult.VOLUME_NOT_EMPTY, failure(() -> ns.deleteVolume("vol1")));
    assertEquals(List.of("flat", "fso"), ns.listBuckets("vol1", "", "", 0).getBucketsList().stream()
        .map(BucketInfo::getName).toList());
    assertEquals(BucketLayout.FILE_SYSTEM_OPTIMIZED, ns.getBucket("vol1", "fso").getLayout());
    assertEquals("alice", ns.getBucket("vol1", "fso").getOwner());
    put(ns, "flat", "k", 10, false);
    assertEquals(OmResult.BUCKET_NOT_EMPTY, failure(() -> ns.deleteBucket("vol1", "flat")));
    ns.deleteKey("vol1", "flat", "k", false);
    ns.deleteBucket("vol1", "flat");
    ns.deleteBucket("vol1", "fso");
    ns.deleteVolume("vol1");
    assertEquals(0, ns.listVolumes("", "", 0).getVolumesCount());
  }

  @Test
  void directoriesAreCreatedWithParentsAndListedInNameOrderWithPaging() throws Exception {
    Namespace ns = om.namespace;
    ns.createDirectory("vol1", "fso", "a/b/c", "");
    assertTrue(ns.getFileStatus("vol1", "fso", "a/b").getDirectory());
    assertEquals(OmResult.DIRECTORY_NOT_FOUND, failure(() -> put(ns, "fso", "x/y/file", 1, false)));
    put(ns, "fso", "x/y/file", 1, true);
    put(ns, "fso", "a/b/f2", 5, false);
    put(ns, "fso", "a/b/a1", 5, false);
    ns.createDirectory("vol1", "fso", "a/b/d", "");
    List<String> names = ns.listStatus("vol1", "fso", "a/b", "", 0).getEntriesList().stream()
        .map(KeyInfo::getName).toList();
    assertEquals(List.of("a/b/a1", "a/b/c", "a/b/d", "a/b/f2"), names);
    var page = ns.listStatus("vol1", "fso", "a/b", "c", 1);
    assertEquals(List.of("a/b/d"), page.getEntriesList().stream().map(KeyInfo::getName).toList());
    assertTrue(page.getTruncated());
    assertEquals(OmResult.FILE_ALREADY_EXISTS, failure(() -> ns.createDirectory("vol1", "fso", "a/b/f2", "")));
    assertEquals(OmResult.NOT_A_DIRECTORY, failure(() -> put(ns, "fso", "a/b/f2/under", 1, true)));
    assertEquals(OmResult.NOT_A_FILE, failure(() -> ns.lookupKey("vol1", "fso", "a/b")));
    assertEquals(OmResult.INVALID_PATH, failure(() -> ns.createDirectory("vol1", "fso", "a/../b", "")));
    assertEquals(5, ns.lookupKey("vol1", "fso", "/a//b/f2").getSize(), "paths are normalised");
  }

  @Test
  void renamingADirectoryMovesItsWholeSubtreeAndRefusesItsOwnSubtree() throws Exception {
    Namespace ns = om.namespace;
    put(ns, "fso", "src/deep/er/file", 7, true);
    ns.createDirectory("vol1", "fso", "dst", "");
    ns.renameKey("vol1", "fso", "src", "dst/moved");
    assertEquals(7, ns.lookupKey("vol1", "fso", "dst/moved/deep/er/file").getSize());
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.getFileStatus("vol1", "fso", "src")));
    assertEquals(OmResult.INVALID_PATH, failure(() -> ns.renameKey("vol1", "fso", "dst", "dst/moved/deep/x")));
    assertEquals(OmResult.FILE_ALREADY_EXISTS, failure(() -> ns.renameKey("vol1", "fso", "dst/moved", "dst")));
    assertEquals(OmResult.DIRECTORY_NOT_FOUND, failure(() -> ns.renameKey("vol1", "fso", "dst", "no/where")));
    assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"));
  }

  /**
   * S3's deletes in an FSO bucket: deleting the folder marker of a directory that holds something keeps what it
   * holds (the marker is gone: no lookup, no listing of "t/"), and the delete that empties it takes it and every
   * emptied ancestor whose marker went too, in whatever order a client deletes.
   */
  @Test
  void anS3DeleteOfAFolderMarkerKeepsWhatItHoldsAndTheLastDeleteUnderItTakesIt() throws Exception {
    Namespace ns = om.namespace;
    put(ns, "fso", "t/p/f1", 1, true);
    put(ns, "fso", "t/p/f2", 1, true);
    ns.createDirectory("vol1", "fso", "t/keep", "");
    for (String marker : List.of("t/", "t/p/", "t/")) {
      s3Delete(ns, marker);
    }
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.lookupKey(LookupKeyRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").setKey("t/").build())), "its marker is gone");
    assertTrue(ns.getFileStatus("vol1", "fso", "t/p/f1").getSize() == 1, "what it holds is kept");
    assertEquals(List.of("t/keep/", "t/p/f1", "t/p/f2"), names(ns.listKeys("vol1", "fso", "t", "", 0)));
    assertEquals(OmResult.DIRECTORY_NOT_EMPTY, failure(() -> ns.deleteKey("vol1", "fso", "t", false)),
        "a filesystem delete still needs recursive");
    s3Delete(ns, "t/p/f1");
    s3Delete(ns, "t/p/f2");
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.getFileStatus("vol1", "fso", "t/p")), "emptied, it goes");
    assertTrue(ns.getFileStatus("vol1", "fso", "t").getDirectory(), "t still holds keep/, whose marker stays");
    s3Delete(ns, "t/keep/");
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.getFileStatus("vol1", "fso", "t")));
    assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"));
    put(ns, "fso", "h/f", 1, true);
    s3Delete(ns, "h/");
    ns.deleteKey("vol1", "fso", "h/f", false);
    assertEquals("h/", ns.lookupKey(LookupKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey("h/")
        .build()).getName(), "emptied by the filesystem, not by S3: its marker shows again, for S3 to delete");
    assertEquals(List.of("h/"), names(ns.listKeys("vol1", "fso", "h", "", 0)));
    s3Delete(ns, "h/");
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.getFileStatus("vol1", "fso", "h")));
    put(ns, "fso", "m/f", 1, true);
    s3Delete(ns, "m/");
    ns.createDirectory("vol1", "fso", "m", "");
    s3Delete(ns, "m/f");
    assertTrue(ns.getFileStatus("vol1", "fso", "m").getDirectory(), "a marker made again keeps it");
  }

  private static void s3Delete(Namespace ns, String key) throws OmException {
    ns.deleteKey(DeleteKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey(key).setFileOnly(true)
        .build());
  }

  @Test
  void deletesAreImmediateAndQueueBlocksAndUsageFollows() throws Exception {
    Namespace ns = om.namespace;
    put(ns, "fso", "d/f1", 100, true);
    put(ns, "fso", "d/sub/f2", 50, true);
    assertEquals(OmResult.DIRECTORY_NOT_EMPTY, failure(() -> ns.deleteKey("vol1", "fso", "d", false)));
    BucketInfo before = ns.getBucket("vol1", "fso");
    assertEquals(150, before.getUsedBytes());
    assertEquals(4, before.getUsedNamespace(), "d, d/f1, d/sub, d/sub/f2");
    ns.deleteKey("vol1", "fso", "d", true);
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.getFileStatus("vol1", "fso", "d/f1")));
    assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"));
    put(ns, "flat", "k", 600, false);
    assertEquals(OmResult.QUOTA_EXCEEDED, failure(() -> put(ns, "flat", "k2", 600, false)));
    put(ns, "flat", "k", 900, false);
    assertEquals(900, ns.getBucket("vol1", "flat").getUsedBytes(), "an overwrite frees the old size");
  }

  @Test
  void thePurgeEmptiesDeletedDirectoriesAndFreesTheirUsage() throws Exception {
    Namespace ns = om.namespace;
    for (int i = 0; i < 30; i++) {
      put(ns, "fso", "tree/d" + (i % 3) + "/sub/f" + i, 10, true);
    }
    ns.deleteKey("vol1", "fso", "tree", true);
    DirectoryPurger purger = new DirectoryPurger(om.runner);
    assertTrue(purger.purgeAll() >= 30 + 6, "files, d0..d2, their subs and the deleted rows");
    BucketInfo bucket = ns.getBucket("vol1", "fso");
    assertEquals(0, bucket.getUsedBytes());
    assertEquals(0, bucket.getUsedNamespace());
    assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"));
    assertEquals(0, purger.purgeAll(), "nothing left");
    ns.deleteBucket("vol1", "fso");
  }

  @Test
  void aRetriedCommitOfTheSameOpenKeyKeepsItsBlocks() throws Exception {
    Namespace ns = om.namespace;
    OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("flat").setKey("twice")
        .build());
    CommitKeyRequest commit = CommitKeyRequest.newBuilder().setVolume("vol1").setBucket("flat")
        .setOpenId(open.getOpenId()).setOpenKey(open.toByteString()).setSize(5).addBlocks(KeyBlock.newBuilder()
            .setBlockId(BlockId.newBuilder().setContainerId(3).setLocalId(9)).setLength(5)).build();
    ns.commitKey(commit);
    ns.commitKey(commit);
    assertEquals(5, ns.lookupKey("vol1", "flat", "twice").getSize());
    assertEquals(5, ns.getBucket("vol1", "flat").getUsedBytes(), "counted once");
    assertEquals(0, rows(OmTable.DELETED_KEYS, DeletedKeyRow.parser()), "the blocks the key still holds are not"
        + " queued for deletion");
    assertEquals(OmResult.OPEN_KEY_NOT_FOUND, failure(() -> ns.commitKey(commit.toBuilder().setBucket("fso")
        .build())), "an open key of another bucket");
  }

  @Test
  void aPrefixAclIsARowOnlyWhileItHasEntriesAndGoesWithItsBucket() throws Exception {
    Namespace ns = om.namespace;
    AclObject logs = AclObject.newBuilder().setType(AclObjectType.OBJECT_PREFIX).setVolume("vol1").setBucket("flat")
        .setKey("logs/").build();
    NativeAcl bob = NativeAcl.newBuilder().setIdentity(AclIdentity.IDENTITY_USER).setName("bob")
        .setScope(AclScope.SCOPE_ACCESS).addRights(AclRight.RIGHT_READ).build();
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.changeAcl(logs.toBuilder().setKey("logs").build(),
        AclChange.ACL_CHANGE_ADD, List.of(bob))), "a prefix ends in '/'");
    assertEquals(List.of(bob), ns.changeAcl(logs, AclChange.ACL_CHANGE_ADD, List.of(bob)));
    ns.changeAcl(logs.toBuilder().setKey("logs/old/").build(), AclChange.ACL_CHANGE_ADD, List.of(bob));
    assertEquals(List.of(bob), ns.keyResource("vol1", "flat", "logs/2024/a").prefixAcls());
    assertEquals(List.of(), ns.keyResource("vol1", "flat", "logsx/a").prefixAcls());
    assertEquals(2, prefixRows());

    ns.changeAcl(logs, AclChange.ACL_CHANGE_REMOVE, List.of(bob));
    assertEquals(List.of(), ns.keyResource("vol1", "flat", "logs/2024/a").prefixAcls());
    assertEquals(List.of(bob), ns.keyResource("vol1", "flat", "logs/old/a").prefixAcls(), "the longest one holds");
    assertTrue(bucketRow("flat").getPrefixAcls(), "another prefix of the bucket still has an ACL");
    ns.changeAcl(logs.toBuilder().setKey("logs/old/").build(), AclChange.ACL_CHANGE_SET, List.of());
    assertEquals(0, prefixRows());
    assertFalse(bucketRow("flat").getPrefixAcls(), "no prefix of the bucket has an ACL: its keys cost no lookup");

    ns.changeAcl(logs, AclChange.ACL_CHANGE_ADD, List.of(bob));
    ns.deleteBucket("vol1", "flat");
    assertEquals(0, prefixRows(), "a deleted bucket's prefix ACLs go with it");
  }

  private long prefixRows() throws OmException {
    return rows(OmTable.PREFIXES, PrefixRow.parser());
  }

  private <T extends Message> long rows(OmTable table, Parser<T> parser) throws OmException {
    long[] rows = {0};
    om.runner.run("count", txn -> {
      byte[] all = new byte[0];
      txn.scan(table, all, all, parser, (k, r) -> ++rows[0] > 0);
      return null;
    });
    return rows[0];
  }

  private BucketRow bucketRow(String bucket) throws OmException {
    return om.runner.run("read", txn -> Buckets.requireRow(txn, "vol1", bucket));
  }

  @Test
  void fsoKeysListFlatInByteOrderWithPrefixStartAfterAndPaging() throws Exception {
    Namespace ns = om.namespace;
    List<String> keys = List.of("a-b", "a.txt", "a/x", "a/y/z", "a0", "b/c/d/e", "b/c/f", "ab/q", "z");
    for (String k : keys) {
      put(ns, "fso", k, 1, true);
    }
    ns.createDirectory("vol1", "fso", "empty/dir", "");
    // Every directory is listed too, as its folder marker, right before what it holds.
    List<String> directories = List.of("a/", "a/y/", "ab/", "b/", "b/c/", "b/c/d/", "empty/", "empty/dir/");
    List<String> sorted = java.util.stream.Stream.concat(keys.stream(), directories.stream())
        .sorted((x, y) -> java.util.Arrays.compareUnsigned(
        x.getBytes(java.nio.charset.StandardCharsets.UTF_8), y.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
        .toList();
    assertEquals(sorted, names(ns.listKeys("vol1", "fso", "", "", 0)));
    assertEquals(List.of("a/", "a/x", "a/y/", "a/y/z"), names(ns.listKeys("vol1", "fso", "a/", "", 0)));
    assertEquals(List.of("a-b", "a.txt", "a/", "a/x", "a/y/", "a/y/z", "a0", "ab/", "ab/q"),
        names(ns.listKeys("vol1", "fso", "a", "", 0)));
    assertEquals(List.of("b/c/f", "empty/", "empty/dir/", "z"), names(ns.listKeys("vol1", "fso", "", "b/c/d/e", 0)));
    assertEquals(List.of("b/c/d/e", "b/c/f"), names(ns.listKeys("vol1", "fso", "b/", "b/c/d/", 0)));
    List<String> paged = new java.util.ArrayList<>();
    String after = "";
    org.tropos.proto.om.ListKeysResponse page;
    do {
      page = ns.listKeys("vol1", "fso", "", after, 2);
      paged.addAll(names(page));
      after = paged.get(paged.size() - 1);
    } while (page.getTruncated());
    assertEquals(sorted, paged, "pages of two, each after the last key");
  }

  private static List<String> names(org.tropos.proto.om.ListKeysResponse response) {
    return response.getKeysList().stream().map(KeyInfo::getName).toList();
  }

  @Test
  void aBucketWhoseDirectoriesAreDeletedGoesAtOnceAndTheirPurgeLeavesANewOneAlone() throws Exception {
    Namespace ns = om.namespace;
    for (int i = 0; i < 5; i++) {
      put(ns, "fso", "d/sub/f" + i, 10, true);
    }
    ns.deleteKey("vol1", "fso", "d", true);
    ns.deleteBucket("vol1", "fso");
    ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("fso").build());
    put(ns, "fso", "new", 7, true);
    assertTrue(new DirectoryPurger(om.runner).purgeAll() >= 5 + 2, "the old bucket's contents are purged");
    BucketInfo again = ns.getBucket("vol1", "fso");
    assertEquals(7, again.getUsedBytes(), "the purge did not count against the new bucket of that name");
    assertEquals(1, again.getUsedNamespace());
    assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"));
  }

  private static BucketInfo link(Namespace ns, String volume, String name, String sourceVolume, String sourceBucket)
      throws OmException {
    return ns.createBucket(BucketInfo.newBuilder().setVolume(volume).setName(name).setSourceVolume(sourceVolume)
        .setSourceBucket(sourceBucket).build());
  }

  @Test
  void aLinkShowsItsSourcesKeysAndDeletingItLeavesTheSource() throws Exception {
    Namespace ns = om.namespace;
    ns.createVolume(VolumeInfo.newBuilder().setName("s3v").setOwner("bob").build());
    BucketInfo data = link(ns, "s3v", "data", "vol1", "flat");
    assertEquals("vol1/flat", data.getSourceVolume() + "/" + data.getSourceBucket());
    assertEquals(BucketLayout.OBJECT_STORE, data.getLayout(), "a link shows its source's layout");
    assertEquals("bob", data.getOwner(), "a link belongs to its creator (here its volume's owner)");
    put(ns, "vol1", "flat", "a", 10, false);
    put(ns, "s3v", "data", "b", 20, false);
    assertEquals(List.of("a", "b"), names(ns.listKeys("s3v", "data", "", "", 100)));
    assertEquals(List.of("a", "b"), names(ns.listKeys("vol1", "flat", "", "", 100)));
    assertEquals(30, ns.getBucket("vol1", "flat").getUsedBytes(), "keys written through a link count in its source");
    assertEquals(20, ns.lookupKey("vol1", "flat", "b").getSize());
    link(ns, "s3v", "chained", "s3v", "data");
    assertEquals(10, ns.lookupKey("s3v", "chained", "a").getSize(), "a link to a link reaches the keys");

    ns.deleteBucket("s3v", "chained");
    ns.deleteBucket("s3v", "data");
    assertEquals(OmResult.BUCKET_NOT_FOUND, failure(() -> ns.getBucket("s3v", "data")));
    assertEquals(List.of("a", "b"), names(ns.listKeys("vol1", "flat", "", "", 100)), "the source keeps its keys");
  }

  @Test
  void attributesOfFilesAndDirectoriesAreSetFieldByField() throws Exception {
    Namespace ns = om.namespace;
    put(ns, "fso", "d/f", 5, true);
    SetFileAttributesRequest.Builder r = SetFileAttributesRequest.newBuilder().setVolume("vol1").setBucket("fso");
    KeyInfo file = ns.setFileAttributes(r.clone().setPath("d/f").setOwner("hive").setPermission(0640)
        .setModificationTimeMs(7).build());
    assertEquals("hive", file.getOwner());
    assertEquals(0640, file.getPermission());
    assertEquals(7, file.getModificationTimeMs());
    file = ns.setFileAttributes(r.clone().setPath("d/f").setGroup("etl").build());
    assertEquals("hive", file.getOwner(), "what a request leaves unset stays");
    assertEquals("etl", ns.getFileStatus("vol1", "fso", "d/f").getGroup());
    assertEquals(5, ns.getFileStatus("vol1", "fso", "d/f").getSize());
    assertEquals(0750, ns.setFileAttributes(r.clone().setPath("d").setPermission(0750).build()).getPermission());
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.setFileAttributes(r.clone().setPath("d")
        .setPermission(010000).build())));
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.setFileAttributes(r.clone().setPath("d/missing")
        .setAccessTimeMs(1).build())));
  }

  /** An hsync commits the open key; later ones and the close commit it again, larger, keeping its blocks. */
  @ParameterizedTest
  @ValueSource(strings = {"fso", "flat"})
  void aKeyCommittedAgainByItsWriterGrowsAndKeepsItsBlocks(String bucket) throws Exception {
    Namespace ns = om.namespace;
    OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket).setKey("log")
        .setNoOverwrite(true).build());
    OpenKeyRow rival = ns.openKey(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket).setKey("log")
        .setNoOverwrite(true).build());
    CommitKeyRequest.Builder commit = CommitKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket)
        .setOpenId(open.getOpenId()).setOpenKey(open.toByteString());
    ns.commitKey(commit.setSize(10).addBlocks(block(1, 10)).build());
    assertEquals(10, ns.lookupKey("vol1", bucket, "log").getSize(), "visible after the first commit");
    ns.commitKey(commit.setSize(30).addBlocks(block(2, 20)).build());
    ns.commitKey(commit.setSize(30).build());
    assertEquals(30, ns.lookupKey("vol1", bucket, "log").getSize());
    assertEquals(2, ns.lookupKey("vol1", bucket, "log").getBlocksCount());
    assertEquals(List.of(), released(ns), "blocks the key still lists are never deleted");
    assertEquals(30, ns.getBucket("vol1", bucket).getUsedBytes(), "counted once");
    assertEquals(1, ns.getBucket("vol1", bucket).getUsedNamespace());
    assertEquals(OmResult.FILE_ALREADY_EXISTS, failure(() -> ns.commitKey(CommitKeyRequest.newBuilder()
        .setVolume("vol1").setBucket(bucket).setOpenId(rival.getOpenId()).setOpenKey(rival.toByteString())
        .setSize(0).build())), "another writer's create without overwrite still fails");
  }

  @Test
  void linksToNothingTooDeepOrWithQuotasAreRefused() throws Exception {
    Namespace ns = om.namespace;
    assertEquals(OmResult.BUCKET_NOT_FOUND, failure(() -> link(ns, "vol1", "lnk", "vol1", "missing")));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> link(ns, "vol1", "lnk", "vol1", "")));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.createBucket(BucketInfo.newBuilder().setVolume("vol1")
        .setName("lnk").setSourceVolume("vol1").setSourceBucket("fso").setQuotaBytes(5).build())));

    ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("gone").build());
    link(ns, "vol1", "dangling", "vol1", "gone");
    ns.deleteBucket("vol1", "gone");
    assertEquals(OmResult.BUCKET_NOT_FOUND, failure(() -> ns.lookupKey("vol1", "dangling", "k")));
    assertEquals("gone", ns.getBucket("vol1", "dangling").getSourceBucket(), "a dangling link itself can be read");
    // A new link must reach a real bucket, so links never form a loop; chains are bounded.
    assertEquals(OmResult.BUCKET_NOT_FOUND, failure(() -> link(ns, "vol1", "gone", "vol1", "dangling")));
    String previous = "fso";
    for (int i = 1; i <= 8; i++) {
      link(ns, "vol1", "chain" + i, "vol1", previous);
      previous = "chain" + i;
    }
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> link(ns, "vol1", "chain9", "vol1", "chain8")));
  }

  @Test
  void everythingCommittedSurvivesARestart() throws Exception {
    put(om.namespace, "fso", "p/q/r", 3, true);
    put(om.namespace, "flat", "obj", 4, false);
    om.close();
    om = new OmTestStore(dir);
    assertEquals(3, om.namespace.lookupKey("vol1", "fso", "p/q/r").getSize());
    assertEquals(4, om.namespace.lookupKey("vol1", "flat", "obj").getSize());
    KeyInfo again = put(om.namespace, "fso", "p/q/s", 1, false);
    assertFalse(again.getObjectId() == om.namespace.lookupKey("vol1", "fso", "p/q/r").getObjectId(),
        "object ids stay unique across restarts");
  }

  @Test
  void s3SecretsAreCreatedOnceReplacedRevokedAndSurviveARestart() throws Exception {
    Namespace ns = om.namespace;
    assertEquals(OmResult.S3_SECRET_NOT_FOUND, failure(() -> ns.s3Secrets().get("alice", false)));
    String first = ns.s3Secrets().get("alice", true).getSecret();
    assertEquals(64, first.length());
    assertEquals(first, ns.s3Secrets().get("alice", true).getSecret(), "a second get returns the same secret");
    assertFalse(first.equals(ns.s3Secrets().get("bob", true).getSecret()));
    assertEquals("s3cr3t", ns.s3Secrets().set("alice", "s3cr3t").getSecret());
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.s3Secrets().set("alice", "has space")));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.s3Secrets().get("", true)));
    ns.s3Secrets().revoke("bob");
    assertEquals(OmResult.S3_SECRET_NOT_FOUND, failure(() -> ns.s3Secrets().revoke("bob")));
    om.close();
    om = new OmTestStore(dir);
    assertEquals("s3cr3t", om.namespace.s3Secrets().get("alice", false).getSecret());
    assertEquals(OmResult.S3_SECRET_NOT_FOUND, failure(() -> om.namespace.s3Secrets().get("bob", false)));
  }

  /**
   * In a secure cluster a secret is sealed before it reaches the database: no file of the OM's holds it (a row
   * written in plaintext before, still readable, shows the scan finds what is there), only the same key opens it,
   * and an OM without the key or with another one answers an error rather than a wrong secret.
   */
  @Test
  void sealedS3SecretsAreNowhereInTheDatabaseFilesAndOpenOnlyWithTheirKey() throws Exception {
    SealingKey key = SealingKey.generate();
    om.namespace.s3Secrets().set("legacy", "plaintext-kept-before-sealing");
    Namespace sealed = new Namespace(om.runner, FSO_THREE,
        S3SecretSealing.sealedWith(() -> key), DataKeys.none());
    assertEquals("plaintext-kept-before-sealing", sealed.s3Secrets().get("legacy", false).getSecret());
    assertEquals("sealed-secret-of-alice-0123456789", sealed.s3Secrets().set("alice",
        "sealed-secret-of-alice-0123456789").getSecret());
    String generated = sealed.s3Secrets().get("bob", true).getSecret();
    assertEquals(generated, sealed.s3Secrets().get("bob", false).getSecret());

    Namespace otherKey = new Namespace(om.runner, FSO_THREE,
        S3SecretSealing.sealedWith(SealingKey::generate), DataKeys.none());
    assertEquals(OmResult.INTERNAL_ERROR, failure(() -> otherKey.s3Secrets().get("alice", false)));
    assertEquals(OmResult.INTERNAL_ERROR, failure(() -> om.namespace.s3Secrets().get("alice", false)));
    om.close();
    assertTrue(filesHold(dir, "plaintext-kept-before-sealing"), "the scan finds a secret kept in plaintext");
    assertFalse(filesHold(dir, "sealed-secret-of-alice"), "a sealed secret is in no file");
    assertFalse(filesHold(dir, generated), "a generated secret is in no file");
    om = new OmTestStore(dir);
    assertEquals("sealed-secret-of-alice-0123456789", new Namespace(om.runner, FSO_THREE,
        S3SecretSealing.sealedWith(() -> key), DataKeys.none()).s3Secrets().get("alice", false).getSecret());
  }

  @ParameterizedTest
  @ValueSource(strings = {"flat", "fso"})
  void anEncryptedKeyKeepsItsDataKeyWrappedAndShowsItsPlaintextSize(String bucket) throws Exception {
    SealingKey key = SealingKey.generate();
    Namespace ns = new Namespace(om.runner, FSO_THREE,
        S3SecretSealing.sealedWith(() -> key), DataKeys.wrappedWith(() -> key));
    OpenKeyRequest.Builder asked = OpenKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket).setKey("e");
    asked.getEncryptionBuilder().setKind(EncryptionKind.SSE_S3);
    OpenKeyRow open = ns.openKey(asked.build());
    byte[] dataKey = ns.dataKeys().unwrap(open.getEncryption());
    assertEquals(32, dataKey.length);
    long stored = SegmentedGcm.storedLength(100);
    KeyInfo committed = ns.commitKey(CommitKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket)
        .setOpenId(open.getOpenId()).setOpenKey(open.toByteString()).setSize(stored)
        .addBlocks(block(open.getOpenId(), stored)).build());
    assertEquals(100, committed.getSize());
    assertEquals(100, ns.lookupKey("vol1", bucket, "e").getSize());
    assertArrayEquals(dataKey, ns.dataKeys().unwrap(ns.lookupKey("vol1", bucket, "e").getEncryption()));
    assertEquals(OmResult.INTERNAL_ERROR, failure(() -> DataKeys.wrappedWith(SealingKey::generate)
        .unwrap(committed.getEncryption())), "another cluster's master key");

    // A stored length no encrypted stream has is refused, and a writer's own data key is wrapped as given.
    OpenKeyRow again = ns.openKey(asked.build());
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> ns.commitKey(CommitKeyRequest.newBuilder()
        .setVolume("vol1").setBucket(bucket).setOpenId(again.getOpenId()).setOpenKey(again.toByteString())
        .setSize(20).addBlocks(block(9, 20)).build())));
    byte[] mine = DataKeys.generate();
    asked.getEncryptionBuilder().setDataKey(ByteString.copyFrom(mine));
    KeyInfo small = ns.commitKey(createdWithCommit(asked.setKey("mine").build(), SegmentedGcm.storedLength(5)));
    assertEquals(5, small.getSize());
    assertArrayEquals(mine, ns.dataKeys().unwrap(small.getEncryption()));
    om.close();
    assertFalse(filesHold(dir, dataKey), "a data key is in a file");
    om = new OmTestStore(dir);
  }

  @Test
  void aBucketsDefaultEncryptionEncryptsKeysOpenedWithoutAskingAndRefusesOnesWrittenInTheClear() throws Exception {
    SealingKey key = SealingKey.generate();
    Namespace ns = new Namespace(om.runner, FSO_THREE,
        S3SecretSealing.sealedWith(() -> key), DataKeys.wrappedWith(() -> key));
    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName("flat")
        .setSetEncryption(true).setEncryption(BucketEncryption.newBuilder().setKind(EncryptionKind.SSE_S3)).build());
    assertEquals(EncryptionKind.SSE_S3, ns.getBucket("vol1", "flat").getEncryption().getKind());
    OpenKeyRequest plain = OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("flat").setKey("d").build();
    assertEquals(EncryptionKind.SSE_S3, ns.openKey(plain).getEncryption().getKind());
    assertEquals(OmResult.BUCKET_CHANGED, failure(() -> ns.commitKey(createdWithCommit(plain, 5))));
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.lookupKey("vol1", "flat", "d")));

    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName("flat")
        .setSetEncryption(true).build());
    assertFalse(ns.getBucket("vol1", "flat").hasEncryption());
    assertFalse(ns.openKey(plain).hasEncryption());
    // Without a master key (no security) encryption is refused, not pretended.
    OpenKeyRequest.Builder asked = plain.toBuilder();
    asked.getEncryptionBuilder().setKind(EncryptionKind.SSE_S3);
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> om.namespace.openKey(asked.build())));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> om.namespace.setBucketProperties(SetBucketPropertiesRequest
        .newBuilder().setVolume("vol1").setName("flat").setSetEncryption(true).setEncryption(BucketEncryption
            .newBuilder().setKind(EncryptionKind.SSE_S3)).build())));
    assertFalse(om.namespace.getBucket("vol1", "flat").hasEncryption());
  }

  private static boolean filesHold(Path dir, String text) throws IOException {
    return filesHold(dir, text.getBytes(StandardCharsets.UTF_8));
  }

  private static boolean filesHold(Path dir, byte[] wanted) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
          if (Arrays.equals(bytes, i, i + wanted.length, wanted, 0, wanted.length)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static KeyBlock block(long localId, long length) {
    return KeyBlock.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(7).setLocalId(localId))
        .setLength(length).build();
  }

  private static List<Long> released(Namespace ns) throws OmException {
    List<DeletedKeyBlocks> rows = ns.releaseDeletedKeys(100);
    ns.forgetDeletedKeys(rows.stream().map(DeletedKeyBlocks::rowKey).toList());
    return rows.stream().flatMap(r -> r.blocks().stream()).map(b -> b.getBlockId().getLocalId()).sorted().toList();
  }

  @Test
  void aCopySharesBlocksWhichGoOnlyWithTheirLastReference() throws Exception {
    Namespace ns = om.namespace;
    ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("s3b").setLayout(BucketLayout.OBJECT_STORE)
        .build());
    KeyInfo source = put(ns, "s3b", "src", 500, false);
    KeyInfo copy = ns.copyKey(CopyKeyRequest.newBuilder().setVolume("vol1").setBucket("s3b").setKey("src")
        .setToVolume("vol1").setToBucket("fso").setToKey("a/b/copy").build());
    assertEquals(source.getBlocksList(), copy.getBlocksList());
    ns.copyKey(CopyKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey("a/b/copy")
        .setToVolume("vol1").setToBucket("s3b").setToKey("copy2").setReplaceMetadata(true)
        .putMetadata("k", "v").build());
    assertEquals("v", ns.lookupKey("vol1", "s3b", "copy2").getMetadataMap().get("k"));
    ns.deleteKey("vol1", "s3b", "src", false);
    assertEquals(List.of(), released(ns), "two keys still hold the block");
    ns.deleteKey("vol1", "fso", "a/b/copy", false);
    assertEquals(List.of(), released(ns), "one key still holds it");
    put(ns, "s3b", "copy2", 3, false);
    assertEquals(List.of(source.getBlocks(0).getBlockId().getLocalId()), released(ns),
        "the overwrite dropped the last reference");
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.copyKey(CopyKeyRequest.newBuilder().setVolume("vol1")
        .setBucket("s3b").setKey("src").setToVolume("vol1").setToBucket("s3b").setToKey("x").build())));
  }

  private static void part(Namespace ns, String uploadId, int number, long localId, long size, String etag)
      throws OmException {
    OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey("big/obj")
        .setCreateParents(true).setUploadId(uploadId).setPartNumber(number).build());
    ns.commitKey(CommitKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setOpenId(open.getOpenId())
        .setOpenKey(open.toByteString()).setSize(size).addBlocks(block(localId, size)).putMetadata("ETag", etag)
        .build());
  }

  private static PartInfo listed(int number, String etag) {
    return PartInfo.newBuilder().setPartNumber(number).setEtag(etag).build();
  }

  @Test
  void multipartPartsJoinWithoutCopyingAndLeftOverPartsAreDeleted() throws Exception {
    Namespace ns = om.namespace;
    String id = ns.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").setKey("big/obj").putMetadata("Content-Type", "text/plain").build());
    String md5a = "0cc175b9c0f1b6a831c399e269772661";
    String md5b = "92eb5ffee6ae2fec3ad71c777531578f";
    part(ns, id, 1, 101, 10, "\"" + md5a + "\"");
    part(ns, id, 2, 102, 20, "\"" + md5b + "\"");
    part(ns, id, 3, 103, 30, "\"unused\"");
    part(ns, id, 2, 104, 4, "\"" + md5b + "\"");
    assertEquals(List.of(102L), released(ns), "a part written again frees the first one");
    assertEquals(List.of(1, 2, 3), ns.listParts(ListPartsRequest.newBuilder().setVolume("vol1").setBucket("fso")
        .setKey("big/obj").setUploadId(id).build()).getPartsList().stream().map(PartInfo::getPartNumber).toList());
    assertEquals(1, ns.listMultipartUploads(ListMultipartUploadsRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").build()).getUploadsCount());
    CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").setKey("big/obj").setUploadId(id);
    assertEquals(OmResult.INVALID_PART_ORDER, failure(() -> ns.completeMultipartUpload(complete.clone()
        .addParts(listed(2, md5b)).addParts(listed(1, md5a)).build())));
    assertEquals(OmResult.INVALID_PART, failure(() -> ns.completeMultipartUpload(complete.clone()
        .addParts(listed(1, md5b)).build())));
    assertEquals(OmResult.ENTITY_TOO_SMALL, failure(() -> ns.completeMultipartUpload(complete.clone()
        .addParts(listed(1, md5a)).addParts(listed(2, md5b)).setMinPartSize(11).build())));
    assertEquals(OmResult.INVALID_PART, failure(() -> ns.completeMultipartUpload(complete.clone()
        .addParts(listed(1, md5a)).addParts(listed(2, md5b)).addParts(listed(2, "stale")).build())),
        "a part listed twice counts with its last entry");
    KeyInfo key = ns.completeMultipartUpload(complete.clone().addParts(listed(1, md5a)).addParts(listed(2, "stale"))
        .addParts(listed(2, md5b)).setMinPartSize(5).build());
    assertEquals(14, key.getSize());
    assertEquals(List.of(101L, 104L), key.getBlocksList().stream().map(b -> b.getBlockId().getLocalId()).toList());
    assertEquals("text/plain", key.getMetadataMap().get("Content-Type"));
    assertEquals("\"" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(
        java.util.HexFormat.of().parseHex(md5a + md5b))) + "-2\"", key.getMetadataMap().get("ETag"));
    assertEquals(List.of(103L), released(ns), "the part left out is deleted");
    assertEquals(OmResult.NO_SUCH_UPLOAD, failure(() -> part(ns, id, 4, 105, 1, "\"x\"")));
    assertEquals(0, ns.listMultipartUploads(ListMultipartUploadsRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").build()).getUploadsCount());

    String aborted = ns.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").setKey("big/obj").build());
    part(ns, aborted, 1, 106, 5, "\"x\"");
    ns.abortMultipartUpload("vol1", "fso", "big/obj", aborted);
    assertEquals(List.of(106L), released(ns));
    assertEquals(14, ns.lookupKey("vol1", "fso", "big/obj").getSize(), "an abort leaves the key as it was");
  }

  /**
   * A part keeps the checksum its writer recorded; the upload's metadata and each part's checksum are listed, a
   * completion naming another checksum for a part is refused, and the key gets the metadata the completion adds.
   */
  @Test
  void partChecksumsAreKeptListedAndCheckedAtCompletion() throws Exception {
    Namespace ns = om.namespace;
    String id = ns.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").setKey("big/obj").putMetadata("x-amz-checksum-algorithm", "CRC32").build());
    OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey("big/obj")
        .setCreateParents(true).setUploadId(id).setPartNumber(1).build());
    ns.commitKey(CommitKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setOpenId(open.getOpenId())
        .setOpenKey(open.toByteString()).setSize(10).addBlocks(block(201, 10)).putMetadata("ETag", "\"e1\"")
        .putMetadata("PartChecksum", "CRC32:abc=").build());
    var listed = ns.listParts(ListPartsRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey("big/obj")
        .setUploadId(id).build());
    assertEquals("CRC32:abc=", listed.getParts(0).getChecksum());
    assertEquals("CRC32", listed.getMetadataMap().get("x-amz-checksum-algorithm"));
    CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest.newBuilder().setVolume("vol1")
        .setBucket("fso").setKey("big/obj").setUploadId(id);
    assertEquals(OmResult.INVALID_PART, failure(() -> ns.completeMultipartUpload(complete.clone()
        .addParts(listed(1, "e1").toBuilder().setChecksum("CRC32:other=")).build())));
    KeyInfo key = ns.completeMultipartUpload(complete.clone().addParts(listed(1, "e1").toBuilder()
        .setChecksum("CRC32:abc=")).putMetadata("x-amz-checksum-crc32", "joined").build());
    assertEquals("joined", key.getMetadataMap().get("x-amz-checksum-crc32"));
    assertEquals("CRC32:abc=", ns.lookupKey(LookupKeyRequest.newBuilder().setVolume("vol1").setBucket("fso")
        .setKey("big/obj").setWithParts(true).build()).getParts(0).getChecksum());
  }

  @Test
  void aByteRangeIsSlicedOutOfBlocksAtTheirOffsets() {
    List<KeyBlock> blocks = List.of(block(1, 10), block(2, 10).toBuilder().setOffset(5).build(), block(3, 10));
    List<KeyBlock> slices = Multipart.slice(blocks, 4, 22);
    assertEquals(List.of(1L, 2L, 3L), slices.stream().map(b -> b.getBlockId().getLocalId()).toList());
    assertEquals(List.of(4L, 5L, 0L), slices.stream().map(KeyBlock::getOffset).toList());
    assertEquals(List.of(6L, 10L, 3L), slices.stream().map(KeyBlock::getLength).toList());
    assertEquals(List.of(2L), Multipart.slice(blocks, 12, 13).stream().map(b -> b.getBlockId().getLocalId())
        .toList());
    assertEquals(7, Multipart.slice(blocks, 12, 13).get(0).getOffset());
    assertEquals(List.of(10L, 15L, 10L), slices.stream().map(KeyBlock::getBlockLength).toList(),
        "each slice keeps its whole block's length");
    assertEquals(15, Multipart.slice(slices, 7, 8).get(0).getBlockLength(), "a slice of a slice too");
  }
}
