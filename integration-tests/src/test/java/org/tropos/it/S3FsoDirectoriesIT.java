package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.VolumeInfo;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Directories over S3 in a FILE_SYSTEM_OPTIMIZED bucket shared to S3 by a link (as {@code tropos sh bucket link}
 * does): a key ending in '/' is a directory (created with its parents, listed while empty, HEAD and DELETE), a
 * file and a directory of one name are refused with a clear error and change nothing, and pyarrow writes a dataset
 * into it and reads it back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3FsoDirectoriesIT {
  private S3Cluster cluster;
  private TroposClient tropos;
  private S3Client s3;
  private S3Secret alice;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    tropos = cluster.tropos();
    alice = cluster.secret("alice");
    s3 = cluster.client("alice");
    tropos.createVolume(VolumeInfo.newBuilder().setName("warehouse").setOwner("alice").build());
    tropos.createBucket(BucketInfo.newBuilder().setVolume("warehouse").setName("lake").setOwner("alice")
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    try {
      tropos.getVolume("s3v");
    } catch (OmException e) {
      tropos.createVolume(VolumeInfo.newBuilder().setName("s3v").setOwner("alice").build());
    }
    tropos.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName("lake").setOwner("alice")
        .setSourceVolume("warehouse").setSourceBucket("lake").build());
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

  /** The regression: PutObject "m1/" made a zero-byte file m1, and every write under m1/ then failed 404. */
  @Test
  void aKeyEndingInSlashIsADirectoryThatFilesGoUnder() throws Exception {
    s3.putObject(p -> p.bucket("lake").key("m1/"), RequestBody.empty());
    assertTrue(tropos.getFileStatus("warehouse", "lake", "m1").getDirectory());
    assertEquals(0, s3.headObject(h -> h.bucket("lake").key("m1/")).contentLength());
    assertEquals(404, assertThrows(S3Exception.class, () -> s3.headObject(h -> h.bucket("lake").key("m1")))
        .statusCode(), "the directory is m1/, not an object m1");
    assertEquals(List.of("m1/"), keys("m1"));
    assertEquals(List.of("m1/"), s3.listObjectsV2(l -> l.bucket("lake").prefix("m1").delimiter("/"))
        .commonPrefixes().stream().map(CommonPrefix::prefix).toList());

    s3.putObject(p -> p.bucket("lake").key("m1/a.txt"), RequestBody.fromString("under m1"));
    assertEquals("under m1", s3.getObjectAsBytes(g -> g.bucket("lake").key("m1/a.txt")).asUtf8String());
    s3.putObject(p -> p.bucket("lake").key("m1/"), RequestBody.empty());
    assertEquals(List.of("m1/", "m1/a.txt"), keys("m1/"), "an existing directory stays as it is, its files too");

    s3.copyObject(c -> c.sourceBucket("lake").sourceKey("m1/").destinationBucket("lake").destinationKey("m2/"));
    assertTrue(tropos.getFileStatus("warehouse", "lake", "m2").getDirectory(), "a directory copies as one (S3A)");
    assertEquals("InvalidRequest", code(() -> s3.copyObject(c -> c.sourceBucket("lake").sourceKey("m1/")
        .destinationBucket("lake").destinationKey("m3"))), "a directory is not copied to a file");

    s3.putObject(p -> p.bucket("lake").key("d1/d2/d3/"), RequestBody.empty());
    assertTrue(tropos.getFileStatus("warehouse", "lake", "d1/d2").getDirectory(), "parents are made too");
    assertEquals(List.of("d1/", "d1/d2/", "d1/d2/d3/"), keys("d1/"), "each directory shows as its marker");
  }

  @Test
  void aFileAndADirectoryOfOneNameAreRefusedAndNothingChanges() throws Exception {
    s3.putObject(p -> p.bucket("lake").key("f"), RequestBody.fromString("a file"));
    s3.putObject(p -> p.bucket("lake").key("dir/"), RequestBody.empty());
    assertEquals("ParentIsObject", code(() -> s3.putObject(p -> p.bucket("lake").key("f/"), RequestBody.empty())));
    assertEquals("ParentIsObject", code(() -> s3.putObject(p -> p.bucket("lake").key("f/x"),
        RequestBody.fromString("x"))));
    assertEquals("ObjectExistsAsDirectory", code(() -> s3.putObject(p -> p.bucket("lake").key("dir"),
        RequestBody.fromString("x"))));
    assertEquals("InvalidRequest", code(() -> s3.putObject(p -> p.bucket("lake").key("body/"),
        RequestBody.fromString("bytes"))), "a directory holds no bytes");
    assertEquals("a file", s3.getObjectAsBytes(g -> g.bucket("lake").key("f")).asUtf8String());
    assertTrue(tropos.getFileStatus("warehouse", "lake", "dir").getDirectory());
    assertEquals(404, assertThrows(S3Exception.class, () -> s3.headObject(h -> h.bucket("lake").key("body/")))
        .statusCode());
    assertEquals(404, assertThrows(S3Exception.class, () -> s3.headObject(h -> h.bucket("lake").key("f/")))
        .statusCode(), "a file is not a directory");
  }

  /**
   * DELETE "d/" removes an empty directory; for one that holds files it removes the folder marker only, as S3 keeps
   * what is under a deleted marker (the directory then shows only as a prefix), and the delete of its last file
   * takes it. DELETE "d" is about an object d, so it leaves the directory, and DELETE "f/" leaves file f.
   */
  @Test
  void deletesNameEitherTheDirectoryOrTheFileNeverTheOther() throws Exception {
    s3.putObject(p -> p.bucket("lake").key("gone/k"), RequestBody.fromString("k"));
    s3.putObject(p -> p.bucket("lake").key("kept"), RequestBody.fromString("kept"));
    s3.deleteObject(d -> d.bucket("lake").key("gone/"));
    assertEquals("k", s3.getObjectAsBytes(g -> g.bucket("lake").key("gone/k")).asUtf8String(), "its file is kept");
    assertEquals(404, assertThrows(S3Exception.class, () -> s3.headObject(h -> h.bucket("lake").key("gone/")))
        .statusCode(), "its marker is gone");
    assertEquals(List.of("gone/k"), keys("gone"));
    s3.deleteObject(d -> d.bucket("lake").key("gone"));
    assertTrue(tropos.getFileStatus("warehouse", "lake", "gone").getDirectory(), "DELETE gone is not about gone/");
    s3.deleteObject(d -> d.bucket("lake").key("kept/"));
    assertEquals("kept", s3.getObjectAsBytes(g -> g.bucket("lake").key("kept")).asUtf8String());
    s3.deleteObject(d -> d.bucket("lake").key("gone/k"));
    assertThrows(OmException.class, () -> tropos.getFileStatus("warehouse", "lake", "gone"),
        "the delete of its last file takes a directory without a marker");

    s3.putObject(p -> p.bucket("lake").key("tree/sub/f"), RequestBody.fromString("f"));
    List<ObjectIdentifier> parentsFirst = keys("tree/").stream().map(k -> ObjectIdentifier.builder().key(k).build())
        .toList();
    assertEquals(List.of("tree/", "tree/sub/", "tree/sub/f"), parentsFirst.stream().map(ObjectIdentifier::key)
        .toList());
    assertTrue(s3.deleteObjects(d -> d.bucket("lake").delete(x -> x.objects(parentsFirst))).errors().isEmpty(),
        "one DeleteObjects of a directory and all it holds, listed parents first, deletes them all");
    assertEquals(List.of(), keys("tree"));
    assertThrows(OmException.class, () -> tropos.getFileStatus("warehouse", "lake", "tree"));
  }


  /** pyarrow's write_dataset makes its directories with folder markers, then writes files under them. */
  @Test
  void pyarrowWritesADatasetAndReadsItBack() throws Exception {
    Assumptions.assumeTrue(new ProcessBuilder("python3", "-c", "import pyarrow.fs").start().waitFor() == 0,
        "pyarrow is not installed");
    String script = String.join("\n",
        "import pyarrow as pa, pyarrow.dataset as ds, pyarrow.fs as fs",
        "s3 = fs.S3FileSystem(access_key='alice', secret_key='" + alice.getSecret() + "',",
        "    endpoint_override='" + cluster.endpoint() + "', scheme='http', region='us-east-1')",
        "table = pa.table({'year': [2024, 2024, 2025], 'v': [1, 2, 3]})",
        "ds.write_dataset(table, 'lake/sales', filesystem=s3, format='parquet', partitioning=['year'])",
        "back = ds.dataset('lake/sales', filesystem=s3, format='parquet', partitioning=['year']).to_table()",
        "print('rows', sorted(back.column('v').to_pylist()))");
    Process python = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
    String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(python.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, python.exitValue(), out);
    assertTrue(out.contains("rows [1, 2, 3]"), out);
    assertTrue(tropos.getFileStatus("warehouse", "lake", "sales/2025").getDirectory());
  }

  private List<String> keys(String prefix) {
    return s3.listObjectsV2(l -> l.bucket("lake").prefix(prefix)).contents().stream().map(S3Object::key)
        .filter(k -> k.startsWith(prefix)).toList();
  }

  private static String code(org.junit.jupiter.api.function.Executable call) {
    return assertThrows(S3Exception.class, call).awsErrorDetails().errorCode();
  }
}
