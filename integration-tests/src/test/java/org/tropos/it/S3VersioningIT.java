package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * S3 versioning through the AWS SDK v2: overwrites keep versions, deletes add markers, old versions are read and
 * deleted by id, versioning is suspended, ListObjectVersions pages through everything, and an unversioned bucket
 * lists its objects with version id "null" so that a versions-based clean-up (the conformance suite's teardown)
 * empties it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3VersioningIT {
  private S3Cluster cluster;
  private S3Client s3;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    s3 = cluster.client("dana");
  }

  @AfterAll
  void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private String put(String bucket, String key, String content) {
    PutObjectResponse put = s3.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString(content));
    return put.versionId();
  }

  private String read(String bucket, String key, String versionId) {
    return s3.getObjectAsBytes(g -> g.bucket(bucket).key(key).versionId(versionId)).asUtf8String();
  }

  @Test
  void overwritesKeepVersionsAndDeletesAddMarkers() {
    s3.createBucket(b -> b.bucket("history"));
    String unversioned = put("history", "doc", "v0");
    assertNull(unversioned, "no version id before versioning is enabled");
    s3.putBucketVersioning(v -> v.bucket("history").versioningConfiguration(c -> c
        .status(BucketVersioningStatus.ENABLED)));
    assertEquals(BucketVersioningStatus.ENABLED, s3.getBucketVersioning(g -> g.bucket("history")).status());
    String v1 = put("history", "doc", "v1");
    String v2 = put("history", "doc", "v2");
    assertNotEquals(v1, v2);
    assertEquals("v2", read("history", "doc", null));
    assertEquals("v1", read("history", "doc", v1));
    assertEquals("v0", read("history", "doc", "null"));
    assertEquals(v1, s3.headObject(h -> h.bucket("history").key("doc").versionId(v1)).versionId());

    DeleteObjectResponse deleted = s3.deleteObject(d -> d.bucket("history").key("doc"));
    assertTrue(deleted.deleteMarker());
    S3Exception gone = assertThrows(S3Exception.class, () -> read("history", "doc", null));
    assertEquals(404, gone.statusCode());
    assertEquals("true", gone.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-delete-marker")
        .orElse(""));
    assertEquals(405, assertThrows(S3Exception.class, () -> read("history", "doc", deleted.versionId()))
        .statusCode());
    assertTrue(s3.listObjectsV2(l -> l.bucket("history")).contents().isEmpty());

    ListObjectVersionsResponse versions = s3.listObjectVersions(l -> l.bucket("history"));
    assertEquals(List.of(v2, v1, "null"), versions.versions().stream().map(ObjectVersion::versionId).toList());
    assertEquals(List.of(deleted.versionId()), versions.deleteMarkers().stream().map(DeleteMarkerEntry::versionId)
        .toList());
    assertTrue(versions.deleteMarkers().get(0).isLatest());

    s3.deleteObject(d -> d.bucket("history").key("doc").versionId(deleted.versionId()));
    assertEquals("v2", read("history", "doc", null), "deleting the marker brings the object back");
    s3.deleteObject(d -> d.bucket("history").key("doc").versionId(v2));
    assertEquals("v1", read("history", "doc", null), "deleting the latest version makes the previous one latest");
    assertEquals("NoSuchVersion", assertThrows(S3Exception.class, () -> read("history", "doc", v2))
        .awsErrorDetails().errorCode());
  }

  @Test
  void suspendedVersioningOverwritesTheNullVersionOnly() {
    s3.createBucket(b -> b.bucket("paused"));
    s3.putBucketVersioning(v -> v.bucket("paused").versioningConfiguration(c -> c
        .status(BucketVersioningStatus.ENABLED)));
    String kept = put("paused", "k", "kept");
    s3.putBucketVersioning(v -> v.bucket("paused").versioningConfiguration(c -> c
        .status(BucketVersioningStatus.SUSPENDED)));
    assertNull(put("paused", "k", "first null"), "S3 gives no version id for a null version written");
    assertNull(put("paused", "k", "second null"));
    assertEquals(List.of("null", kept), s3.listObjectVersions(l -> l.bucket("paused")).versions().stream()
        .map(ObjectVersion::versionId).toList());
    assertEquals("second null", read("paused", "k", "null"));
    assertEquals("kept", read("paused", "k", kept));
  }

  @Test
  void listingsPageWithMarkersAndRollUpCommonPrefixes() {
    s3.createBucket(b -> b.bucket("paged"));
    s3.putBucketVersioning(v -> v.bucket("paged").versioningConfiguration(c -> c
        .status(BucketVersioningStatus.ENABLED)));
    List<String> expected = new ArrayList<>();
    for (String key : List.of("a", "dir/x", "dir/y", "z")) {
      for (int i = 0; i < 3; i++) {
        put("paged", key, key + i);
      }
      expected.add(key);
    }
    List<String> seen = new ArrayList<>();
    s3.listObjectVersionsPaginator(l -> l.bucket("paged").maxKeys(2)).forEach(page -> page.versions()
        .forEach(v -> seen.add(v.key())));
    assertEquals(expected.stream().flatMap(k -> Stream.of(k, k, k)).toList(), seen);
    ListObjectVersionsResponse top = s3.listObjectVersions(l -> l.bucket("paged").delimiter("/"));
    assertEquals(List.of("dir/"), top.commonPrefixes().stream().map(p -> p.prefix()).toList());
    assertEquals(6, top.versions().size(), "a and z, three versions each");
  }

  @Test
  void anUnversionedBucketListsNullVersionsSoAVersionsCleanUpEmptiesIt() {
    s3.createBucket(b -> b.bucket("plain-cleanup"));
    for (int i = 0; i < 5; i++) {
      int n = i;
      s3.putObject(p -> p.bucket("plain-cleanup").key("k" + n), RequestBody.fromString("x"));
    }
    ListObjectVersionsResponse versions = s3.listObjectVersions(l -> l.bucket("plain-cleanup"));
    assertEquals(5, versions.versions().size());
    assertTrue(versions.versions().stream().allMatch(v -> v.versionId().equals("null") && v.isLatest()));
    s3.deleteObjects(d -> d.bucket("plain-cleanup").delete(x -> x.quiet(true).objects(versions.versions().stream()
        .map(v -> ObjectIdentifier.builder().key(v.key()).versionId(v.versionId()).build()).toList())));
    s3.deleteBucket(d -> d.bucket("plain-cleanup"));
    assertTrue(s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals("plain-cleanup")));
  }
}
