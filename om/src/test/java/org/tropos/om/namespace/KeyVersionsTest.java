package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.BucketVersioning;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeyVersionsRequest;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;

/** S3 versioning in the OM: versions kept, delete markers, deletes by id, suspension, listings, blocks freed. */
class KeyVersionsTest {
  @TempDir
  Path dir;
  private OmTestStore om;
  private Namespace ns;

  @BeforeEach
  void open() throws Exception {
    om = new OmTestStore(dir);
    ns = om.namespace;
    ns.createVolume(VolumeInfo.newBuilder().setName("s3v").setOwner("alice").build());
    ns.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName("bkt").setLayout(BucketLayout.OBJECT_STORE)
        .build());
  }

  @AfterEach
  void close() throws Exception {
    om.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private KeyInfo put(String key, long size, String etag) throws OmException {
    OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey(key).build());
    return commit(open, size, etag);
  }

  private KeyInfo commit(OpenKeyRow open, long size, String etag) throws OmException {
    return ns.commitKey(CommitKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setOpenId(open.getOpenId())
        .setOpenKey(open.toByteString()).setSize(size).addBlocks(KeyBlock.newBuilder().setBlockId(BlockId.newBuilder()
            .setContainerId(3).setLocalId(open.getOpenId())).setLength(size)).putMetadata("ETag", etag).build());
  }

  private void versioning(BucketVersioning state) throws OmException {
    ns.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("s3v").setName("bkt")
        .setVersioning(state).build());
  }

  private KeyInfo get(String key, String versionId) throws OmException {
    return ns.lookupKey(LookupKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey(key)
        .setVersionId(versionId).build());
  }

  private DeleteKeyResponse delete(String key, String versionId) throws OmException {
    return ns.deleteKey(DeleteKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey(key)
        .setVersionId(versionId).setOwner("alice").build());
  }

  private List<String> versions(String prefix) throws OmException {
    return ns.listKeyVersions(ListKeyVersionsRequest.newBuilder().setVolume("s3v").setBucket("bkt").setPrefix(prefix)
        .build()).getVersionsList().stream().map(KeyVersionsTest::describe).toList();
  }

  /** key@etag, "marker" for a delete marker, "*" after the latest. */
  private static String describe(KeyInfo v) {
    return v.getName() + "@" + (v.getDeleteMarker() ? "marker" : v.getMetadataMap().get("ETag"))
        + (v.getLatest() ? "*" : "");
  }

  private List<Long> released() throws OmException {
    List<DeletedKeyBlocks> rows = ns.releaseDeletedKeys(100);
    ns.forgetDeletedKeys(rows.stream().map(DeletedKeyBlocks::rowKey).toList());
    return rows.stream().flatMap(r -> r.blocks().stream()).map(b -> b.getBlockId().getLocalId()).sorted().toList();
  }

  private static OmResult failure(NamespaceTest.Executable e) {
    return assertThrows(OmException.class, e::run).result();
  }

  @Test
  void writesKeepEveryVersionAndDeletesAddMarkers() throws Exception {
    KeyInfo unversioned = put("k", 10, "v0");
    assertEquals("null", unversioned.getVersionId());
    versioning(BucketVersioning.VERSIONING_ENABLED);
    KeyInfo v1 = put("k", 11, "v1");
    KeyInfo v2 = put("k", 12, "v2");
    assertTrue(v1.getVersionId().compareTo(v2.getVersionId()) < 0, v1.getVersionId() + " " + v2.getVersionId());
    assertEquals("v2", ns.lookupKey("s3v", "bkt", "k").getMetadataMap().get("ETag"));
    assertEquals("v1", get("k", v1.getVersionId()).getMetadataMap().get("ETag"));
    assertEquals("v0", get("k", "null").getMetadataMap().get("ETag"));
    assertEquals(List.of("k@v2*", "k@v1", "k@v0"), versions(""));
    assertEquals(33, ns.getBucket("s3v", "bkt").getUsedBytes(), "every version's bytes count");

    DeleteKeyResponse marker = delete("k", "");
    assertTrue(marker.getDeleteMarker());
    assertEquals(OmResult.KEY_NOT_FOUND, failure(() -> ns.lookupKey("s3v", "bkt", "k")));
    assertTrue(ns.lookupKey(LookupKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("k")
        .setAllowDeleteMarker(true).build()).getDeleteMarker());
    assertEquals(OmResult.DELETE_MARKER, failure(() -> get("k", marker.getVersionId())));
    assertEquals(List.of(), ns.listKeys("s3v", "bkt", "", "", 10).getKeysList(), "a deleted key is not listed");
    assertEquals(List.of("k@marker*", "k@v2", "k@v1", "k@v0"), versions(""));
    assertEquals(OmResult.BUCKET_NOT_EMPTY, failure(() -> ns.deleteBucket("s3v", "bkt")));
    assertEquals(List.of(), released(), "no version's blocks go while it exists");

    assertTrue(delete("k", marker.getVersionId()).getDeleteMarker());
    assertEquals("v2", ns.lookupKey("s3v", "bkt", "k").getMetadataMap().get("ETag"), "removing the marker undeletes");
    delete("k", v1.getVersionId());
    assertEquals(List.of(v1.getObjectId()), released(), "a version deleted by id frees its blocks");
    assertEquals(List.of("k@v2*", "k@v0"), versions(""));
    delete("k", v2.getVersionId());
    delete("k", "null");
    assertEquals(List.of(), versions(""));
    assertEquals(0, ns.getBucket("s3v", "bkt").getUsedBytes());
    assertEquals(0, ns.getBucket("s3v", "bkt").getUsedNamespace());
    ns.deleteBucket("s3v", "bkt");
  }

  @Test
  void suspendedVersioningReplacesOnlyTheNullVersion() throws Exception {
    versioning(BucketVersioning.VERSIONING_ENABLED);
    KeyInfo v1 = put("k", 5, "v1");
    versioning(BucketVersioning.VERSIONING_SUSPENDED);
    KeyInfo n1 = put("k", 6, "n1");
    assertEquals("null", n1.getVersionId());
    KeyInfo n2 = put("k", 7, "n2");
    assertEquals(List.of("k@n2*", "k@v1"), versions(""));
    assertEquals(List.of(n1.getObjectId()), released(), "the null version written over is freed");
    versioning(BucketVersioning.VERSIONING_ENABLED);
    KeyInfo v3 = put("k", 8, "v3");
    versioning(BucketVersioning.VERSIONING_SUSPENDED);
    DeleteKeyResponse marker = delete("k", "");
    assertEquals("null", marker.getVersionId());
    assertEquals(List.of("k@marker*", "k@v3", "k@v1"), versions(""), "the null marker replaced the older null");
    assertEquals(List.of(n2.getObjectId()), released());
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> versioning(BucketVersioning.VERSIONING_NEVER_ENABLED)));
    assertEquals(OmResult.VERSION_NOT_FOUND, failure(() -> get("k", "00000000000000ff")));
    assertEquals(OmResult.INVALID_REQUEST, failure(() -> get("k", "not-a-version")));
    assertTrue(v1.getVersionId().compareTo(v3.getVersionId()) < 0);
  }

  @Test
  void listingsPageThroughVersionsAndResumeInsideAKey() throws Exception {
    versioning(BucketVersioning.VERSIONING_ENABLED);
    for (String key : List.of("a", "b", "c")) {
      for (int i = 1; i <= 3; i++) {
        put(key, 1, key + i);
      }
    }
    delete("b", "");
    List<String> all = versions("");
    assertEquals(List.of("a@a3*", "a@a2", "a@a1", "b@marker*", "b@b3", "b@b2", "b@b1", "c@c3*", "c@c2", "c@c1"),
        all);
    List<String> paged = new java.util.ArrayList<>();
    String keyMarker = "";
    String versionMarker = "";
    while (true) {
      ListKeyVersionsResponse page = ns.listKeyVersions(ListKeyVersionsRequest.newBuilder().setVolume("s3v")
          .setBucket("bkt").setKeyMarker(keyMarker).setVersionIdMarker(versionMarker).setMaxResults(3).build());
      page.getVersionsList().forEach(v -> paged.add(describe(v)));
      if (!page.getTruncated()) {
        break;
      }
      KeyInfo last = page.getVersions(page.getVersionsCount() - 1);
      keyMarker = last.getName();
      versionMarker = last.getVersionId();
    }
    assertEquals(all, paged);
    assertEquals(List.of("c@c3*", "c@c2", "c@c1"), versions("c"));
    assertEquals(List.of("a@a3*", "c@c3*"), ns.listKeys("s3v", "bkt", "", "", 10).getKeysList().stream()
        .map(KeyVersionsTest::describe).toList());
  }

  @Test
  void conditionsHoldAtCommitAndACopyOfAnOldVersionSharesItsBlocks() throws Exception {
    versioning(BucketVersioning.VERSIONING_ENABLED);
    KeyInfo v1 = put("k", 4, "\"e1\"");
    put("k", 4, "\"e2\"");
    OpenKeyRow stale = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("k")
        .setIfMatch("\"e1\"").build());
    assertEquals(OmResult.PRECONDITION_FAILED, failure(() -> commit(stale, 1, "x")));
    OpenKeyRow current = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("k")
        .setIfMatch("e2").build());
    commit(current, 1, "\"e3\"");
    OpenKeyRow create = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("k")
        .setNoOverwrite(true).build());
    assertEquals(OmResult.FILE_ALREADY_EXISTS, failure(() -> commit(create, 1, "x")));

    KeyInfo copy = ns.copyKey(CopyKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("k")
        .setVersionId(v1.getVersionId()).setToVolume("s3v").setToBucket("bkt").setToKey("copy")
        .setAcl(CannedAcl.ACL_PUBLIC_READ).build());
    assertEquals(v1.getBlocksList(), copy.getBlocksList());
    assertEquals(CannedAcl.ACL_PUBLIC_READ, copy.getAcl());
    delete("k", v1.getVersionId());
    assertEquals(List.of(), released(), "the copy still holds the old version's block");
    ns.setKeyAcl(SetKeyAclRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("copy")
        .setAcl(CannedAcl.ACL_PRIVATE).build());
    assertEquals(CannedAcl.ACL_PRIVATE, ns.lookupKey("s3v", "bkt", "copy").getAcl());
  }

  @Test
  void aCompletedUploadCompletesAgainWithTheSameParts() throws Exception {
    String upload = ns.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder().setVolume("s3v")
        .setBucket("bkt").setKey("mp").build());
    OpenKeyRow part = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey("mp")
        .setUploadId(upload).setPartNumber(1).build());
    commit(part, 9, "\"p1\"");
    CompleteMultipartUploadRequest complete = CompleteMultipartUploadRequest.newBuilder().setVolume("s3v")
        .setBucket("bkt").setKey("mp").setUploadId(upload).addParts(PartInfo.newBuilder().setPartNumber(1)
            .setEtag("p1")).build();
    KeyInfo first = ns.completeMultipartUpload(complete);
    assertEquals(first, ns.completeMultipartUpload(complete));
    assertEquals(List.of(1), ns.lookupKey(LookupKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt")
        .setKey("mp").setWithParts(true).build()).getPartsList().stream().map(PartInfo::getPartNumber).toList());
    assertEquals(OmResult.NO_SUCH_UPLOAD, failure(() -> ns.completeMultipartUpload(complete.toBuilder()
        .setParts(0, PartInfo.newBuilder().setPartNumber(1).setEtag("other")).build())));
  }

  @Test
  void versioningNeedsAnObjectStoreBucket() throws Exception {
    ns.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName("fso")
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    assertEquals(OmResult.NOT_SUPPORTED_FOR_LAYOUT, failure(() -> ns.setBucketProperties(SetBucketPropertiesRequest
        .newBuilder().setVolume("s3v").setName("fso").setVersioning(BucketVersioning.VERSIONING_ENABLED).build())));
    assertFalse(ns.getBucket("s3v", "fso").getVersioning() == BucketVersioning.VERSIONING_ENABLED);
  }

  @Test
  void aWriterCommittingAgainAfterAnotherWriteIsRefusedAndFreesNothing() throws Exception {
    for (BucketVersioning state : List.of(BucketVersioning.VERSIONING_NEVER_ENABLED,
        BucketVersioning.VERSIONING_ENABLED)) {
      String key = "synced-" + state.getNumber();
      if (state == BucketVersioning.VERSIONING_ENABLED) {
        versioning(state);
      }
      OpenKeyRow writer = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt").setKey(key)
          .build());
      commit(writer, 5, "first");
      put(key, 6, "other");
      CommitKeyRequest again = CommitKeyRequest.newBuilder().setVolume("s3v").setBucket("bkt")
          .setOpenId(writer.getOpenId()).setOpenKey(writer.toByteString()).setSize(5).setRecommit(true)
          .addBlocks(KeyBlock.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(3)
              .setLocalId(writer.getOpenId())).setLength(5)).build();
      assertEquals(OmResult.KEY_CHANGED, failure(() -> ns.commitKey(again)), state.toString());
      assertEquals("other", ns.lookupKey("s3v", "bkt", key).getMetadataMap().get("ETag"));
    }
  }

  @Test
  void callsNamingTheObjectTheyCheckedFailWhenItWasReplaced() throws Exception {
    KeyInfo checked = put("k", 3, "a");
    put("k", 3, "b");
    assertEquals(OmResult.KEY_CHANGED, failure(() -> ns.setKeyAcl(SetKeyAclRequest.newBuilder().setVolume("s3v")
        .setBucket("bkt").setKey("k").setVersionId("null").setExpectedObjectId(checked.getObjectId())
        .setAcl(CannedAcl.ACL_PUBLIC_READ).build())));
    assertEquals(CannedAcl.ACL_PRIVATE, ns.lookupKey("s3v", "bkt", "k").getAcl(), "the new object stays private");
    assertEquals(OmResult.KEY_CHANGED, failure(() -> ns.copyKey(CopyKeyRequest.newBuilder().setVolume("s3v")
        .setBucket("bkt").setKey("k").setExpectedObjectId(checked.getObjectId()).setToVolume("s3v")
        .setToBucket("bkt").setToKey("copy").build())));
  }

  @Test
  void anFsoBucketsVersionListingPagesToo() throws Exception {
    ns.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName("tree")
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    for (int i = 0; i < 5; i++) {
      OpenKeyRow open = ns.openKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("tree").setKey("d/f" + i)
          .setCreateParents(true).build());
      ns.commitKey(CommitKeyRequest.newBuilder().setVolume("s3v").setBucket("tree").setOpenId(open.getOpenId())
          .setOpenKey(open.toByteString()).build());
    }
    ListKeyVersionsResponse page = ns.listKeyVersions(ListKeyVersionsRequest.newBuilder().setVolume("s3v")
        .setBucket("tree").setMaxResults(3).build());
    assertEquals(3, page.getVersionsCount());
    assertTrue(page.getTruncated());
  }
}
