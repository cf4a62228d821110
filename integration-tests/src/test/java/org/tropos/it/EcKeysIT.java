package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.KeyOutputStream;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.VolumeInfo;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Erasure-coded keys through every door on five datanodes whose OM erasure-codes new buckets by default: the Java
 * client, {@code tropos sh}, S3 and the Hadoop FileSystem, each read back bit-exact and recorded as erasure-coded.
 */
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EcKeysIT {
  private static final int MB = 1 << 20;
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-1024k");
  private static final Map<String, String> SETTINGS = Map.of("ozone.server.default.replication.type", "EC",
      "ozone.server.default.replication", "rs-3-2-1024k",
      "ozone.s3g.storage.classes", "STANDARD_IA=EC/rs-3-2-1024k,REDUCED_REDUNDANCY=RATIS/ONE",
      "ozone.scm.pipeline.creation.auto.factor.one", "true");

  private Path dir;
  private S3Cluster cluster;
  private TroposClient client;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    cluster = new S3Cluster(dir.resolve("cluster"), SETTINGS, 5);
    client = cluster.tropos();
    client.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("it").build());
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void keysOfAnEcBucketAreStripedUnlessWrittenWithAReplicationOfTheirOwn() throws Exception {
    BucketInfo bucket = client.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("bydefault").build());
    assertEquals(RS_3_2.toProto(), bucket.getEc(), "the OM's default");
    byte[] large = random(9 * MB + 17, 1);
    assertEquals(RS_3_2.toProto(), write(OpenKeyRequest.newBuilder().setBucket("bydefault").setKey("large"), large,
        false).getEc());
    assertArrayEquals(large, read("bydefault", "large"));
    byte[] small = random(1000, 2);
    assertEquals(RS_3_2.toProto(), write(OpenKeyRequest.newBuilder().setBucket("bydefault").setKey("small"), small,
        true).getEc(), "a small key of an EC bucket is striped too, not written to a leased block");
    assertArrayEquals(small, read("bydefault", "small"));
    KeyInfo replicated = write(OpenKeyRequest.newBuilder().setBucket("bydefault").setKey("three")
        .setFactor(ReplicationFactor.THREE), small, true);
    assertFalse(replicated.hasEc());
    assertArrayEquals(small, read("bydefault", "three"));
  }

  @Test
  void theShellCreatesEcBucketsAndPutsAndGetsTheirKeys() throws Exception {
    String conf = mini().clientConfDir(dir.resolve("shell-conf")).toString();
    String created = TroposCli.run(0, "sh", "bucket", "create", "-t", "EC", "-r", "rs-3-2-1024k", "/vol1/shell",
        "--conf", conf);
    assertTrue(created.contains("EC/rs-3-2-1024k"), created);
    String refused = TroposCli.runShowingErrors(1, "sh", "bucket", "create", "-t", "EC", "-r", "rs-3-0-1024k",
        "/vol1/bad", "--conf", conf);
    assertTrue(refused.contains("at least one data and one parity unit"), refused);
    byte[] data = random(3 * MB + 5, 3);
    Path file = Files.write(dir.resolve("in.bin"), data);
    TroposCli.run(0, "sh", "key", "put", "/vol1/shell/k", file.toString(), "--conf", conf);
    Path back = dir.resolve("out.bin");
    TroposCli.run(0, "sh", "key", "get", "/vol1/shell/k", back.toString(), "--conf", conf);
    assertArrayEquals(data, Files.readAllBytes(back));
    assertTrue(TroposCli.run(0, "sh", "key", "info", "/vol1/shell/k", "--conf", conf).contains("EC/rs-3-2-1024k"));
  }

  @Test
  void s3PutsMultipartUploadsAndRangesOfAnEcBucket() throws Exception {
    try (S3Client s3 = cluster.client("alice")) {
      s3.createBucket(b -> b.bucket("coldbucket"));
      assertEquals(RS_3_2.toProto(), client.getBucket("s3v", "coldbucket").getEc());
      byte[] object = random(5 * MB + 1, 4);
      s3.putObject(p -> p.bucket("coldbucket").key("obj"), RequestBody.fromBytes(object));
      assertArrayEquals(object, s3.getObjectAsBytes(g -> g.bucket("coldbucket").key("obj")).asByteArray());
      byte[] range = s3.getObjectAsBytes(g -> g.bucket("coldbucket").key("obj").range("bytes=1048570-3145740"))
          .asByteArray();
      assertArrayEquals(java.util.Arrays.copyOfRange(object, 1048570, 3145741), range);
      assertTrue(client.lookupKey("s3v", "coldbucket", "obj").getKey().hasEc());

      String upload = s3.createMultipartUpload(m -> m.bucket("coldbucket").key("mpu")).uploadId();
      byte[] part1 = random(5 * MB, 5);
      byte[] part2 = random(MB + 3, 6);
      String e1 = s3.uploadPart(u -> u.bucket("coldbucket").key("mpu").uploadId(upload).partNumber(1),
          RequestBody.fromBytes(part1)).eTag();
      String e2 = s3.uploadPart(u -> u.bucket("coldbucket").key("mpu").uploadId(upload).partNumber(2),
          RequestBody.fromBytes(part2)).eTag();
      s3.completeMultipartUpload(c -> c.bucket("coldbucket").key("mpu").uploadId(upload).multipartUpload(
          CompletedMultipartUpload.builder().parts(CompletedPart.builder().partNumber(1).eTag(e1).build(),
              CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
      byte[] joined = s3.getObjectAsBytes(g -> g.bucket("coldbucket").key("mpu")).asByteArray();
      assertArrayEquals(part1, java.util.Arrays.copyOf(joined, part1.length));
      assertArrayEquals(part2, java.util.Arrays.copyOfRange(joined, part1.length, joined.length));
      assertTrue(client.lookupKey("s3v", "coldbucket", "mpu").getKey().hasEc());
    }
  }

  /**
   * A byte range of an erasure-coded key copied into a part (no byte moves: the new key holds a slice of the group)
   * reads back right with the index it starts in gone: the rebuild decodes the slice's last stripe as the whole
   * group lays it out, not as if the group ended where the slice does (whose cells past that end would count as
   * zeros, and the rebuilt bytes come out wrong).
   */
  @Test
  void aRangeCopiedOutOfAnEcKeyReadsBackWithAnIndexGone() throws Exception {
    byte[] source = random(9 * MB + 17, 12);
    int first = MB + 5;
    int last = 7 * MB + 100; // in stripe 2 (bytes 6 to 9 MB), past its first cell, before the group's end
    try (S3Client s3 = cluster.client("alice")) {
      s3.createBucket(b -> b.bucket("ranges"));
      s3.putObject(p -> p.bucket("ranges").key("source"), RequestBody.fromBytes(source));
      String upload = s3.createMultipartUpload(m -> m.bucket("ranges").key("slice")).uploadId();
      String etag = s3.uploadPartCopy(c -> c.sourceBucket("ranges").sourceKey("source").destinationBucket("ranges")
          .destinationKey("slice").uploadId(upload).partNumber(1).copySourceRange("bytes=" + first + "-" + last))
          .copyPartResult().eTag();
      s3.completeMultipartUpload(c -> c.bucket("ranges").key("slice").uploadId(upload).multipartUpload(
          CompletedMultipartUpload.builder().parts(CompletedPart.builder().partNumber(1).eTag(etag).build())
              .build()));
      var lookup = client.lookupKey("s3v", "ranges", "source");
      var container = lookup.getContainers(0);
      UUID firstIndexHolder = null;
      for (int i = 0; i < container.getReplicasCount(); i++) {
        if (container.getReplicaIndexes(i) == 1) {
          firstIndexHolder = org.tropos.common.util.Uuids.fromProto(container.getReplicas(i).getUuid());
        }
      }
      int stopped = datanodeIndex(firstIndexHolder);
      mini().cluster().stopDatanode(stopped);
      try {
        assertArrayEquals(java.util.Arrays.copyOfRange(source, first, last + 1),
            s3.getObjectAsBytes(g -> g.bucket("ranges").key("slice")).asByteArray());
      } finally {
        mini().cluster().startDatanode(stopped);
        mini().awaitAllHealthy(); // the other tests' groups need all five
      }
    }
  }

  /**
   * A storage class configured at the gateway stores a PUT, a multipart upload (its parts too) and a copy as it
   * names, and each is shown with its class; a class not configured, or not S3's, is refused with nothing stored.
   */
  @Test
  void s3StorageClassesStoreKeysAsTheGatewayMapsThem() throws Exception {
    try (S3Client s3 = cluster.client("alice"); ScmAdminClient admin = new ScmAdminClient(mini().scmClientAddress())) {
      Await.until("a RATIS/ONE pipeline with a leader", MiniCluster.WAIT, () -> admin.listPipelines(PipelineState.OPEN),
          ps -> ps.stream().anyMatch(p -> p.getFactor() == ReplicationFactor.ONE && p.hasLeader()));
      s3.createBucket(b -> b.bucket("classes")); // erasure-coded by the OM's default: STANDARD_IA's config
      byte[] data = random(2 * MB + 7, 7);
      s3.putObject(p -> p.bucket("classes").key("rr").storageClass(StorageClass.REDUCED_REDUNDANCY),
          RequestBody.fromBytes(data));
      assertStoredOnOneReplica("rr");
      assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("classes").key("rr")).asByteArray());
      assertEquals(StorageClass.REDUCED_REDUNDANCY, s3.headObject(h -> h.bucket("classes").key("rr")).storageClass());
      s3.putObject(p -> p.bucket("classes").key("ia"), RequestBody.fromBytes(data));
      assertTrue(client.lookupKey("s3v", "classes", "ia").getKey().hasEc());
      Map<String, String> listed = new java.util.TreeMap<>();
      s3.listObjectsV2(l -> l.bucket("classes")).contents().forEach(o -> listed.put(o.key(), o.storageClassAsString()));
      assertEquals(Map.of("ia", "STANDARD_IA", "rr", "REDUCED_REDUNDANCY"), listed);

      String upload = s3.createMultipartUpload(m -> m.bucket("classes").key("mpu")
          .storageClass(StorageClass.REDUCED_REDUNDANCY)).uploadId();
      byte[] part1 = random(5 * MB, 8);
      String e1 = s3.uploadPart(u -> u.bucket("classes").key("mpu").uploadId(upload).partNumber(1),
          RequestBody.fromBytes(part1)).eTag();
      String e2 = s3.uploadPart(u -> u.bucket("classes").key("mpu").uploadId(upload).partNumber(2),
          RequestBody.fromBytes(data)).eTag();
      assertEquals(StorageClass.REDUCED_REDUNDANCY, s3.listParts(l -> l.bucket("classes").key("mpu")
          .uploadId(upload)).storageClass());
      assertEquals(List.of(StorageClass.REDUCED_REDUNDANCY), s3.listMultipartUploads(l -> l.bucket("classes"))
          .uploads().stream().map(u -> u.storageClass()).toList());
      s3.completeMultipartUpload(c -> c.bucket("classes").key("mpu").uploadId(upload).multipartUpload(
          CompletedMultipartUpload.builder().parts(CompletedPart.builder().partNumber(1).eTag(e1).build(),
              CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
      assertStoredOnOneReplica("mpu");

      s3.copyObject(c -> c.sourceBucket("classes").sourceKey("rr").destinationBucket("classes").destinationKey("rr")
          .storageClass(StorageClass.STANDARD_IA));
      assertTrue(client.lookupKey("s3v", "classes", "rr").getKey().hasEc(), "rewritten in place as STANDARD_IA");
      assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("classes").key("rr")).asByteArray());

      S3Exception glacier = assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("classes").key("cold")
          .storageClass(StorageClass.GLACIER), RequestBody.fromBytes(data)));
      assertEquals(501, glacier.statusCode(), glacier.getMessage());
      S3Exception bogus = assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("classes").key("cold")
          .storageClass("WARM"), RequestBody.fromBytes(data)));
      assertEquals("InvalidStorageClass", bogus.awsErrorDetails().errorCode());
      assertThrows(NoSuchKeyException.class, () -> s3.headObject(h -> h.bucket("classes").key("cold")));
    }
  }

  /** The key is recorded with one replica, and every block of it is in a container of one member. */
  private void assertStoredOnOneReplica(String key) throws Exception {
    KeyInfo info = client.lookupKey("s3v", "classes", key).getKey();
    assertFalse(info.hasEc());
    assertEquals(ReplicationFactor.ONE, info.getFactor());
    assertFalse(info.getBlocksList().isEmpty());
    for (var block : info.getBlocksList()) {
      assertEquals(1, mini().cluster().scm().containerManager().container(block.getBlockId().getContainerId())
          .getMembersCount(), key + "'s block " + block.getBlockId());
    }
  }

  @Test
  void theFileSystemWritesAndReadsFilesOfAnEcBucket() throws Exception {
    client.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("fsbucket").build());
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    mini().clientConfig().explicitValues().forEach(conf::set);
    conf.set("fs.tropos.impl", "org.tropos.client.hadoop.TroposFileSystem");
    byte[] data = random(7 * MB + 11, 7);
    try (org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.newInstance(
        URI.create("tropos://" + mini().omAddress() + "/"), conf)) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/vol1/fsbucket/dir/part-0000");
      try (OutputStream out = fs.create(file)) {
        out.write(data);
      }
      try (InputStream in = fs.open(file)) {
        assertArrayEquals(data, in.readAllBytes());
      }
      assertFalse(write(OpenKeyRequest.newBuilder().setBucket("fsbucket").setKey("dir/three")
          .setFactor(ReplicationFactor.THREE), data, false).hasEc());
      // A composite CRC is of the bytes alone (HDFS's COMPOSITE_CRC): the same striped as on three replicas.
      var striped = (org.apache.hadoop.fs.CompositeCrcFileChecksum) fs.getFileChecksum(file);
      assertEquals(fs.getFileChecksum(new org.apache.hadoop.fs.Path("/vol1/fsbucket/dir/three")), striped);
      CRC32C crc = new CRC32C();
      crc.update(data);
      assertEquals((int) crc.getValue(), java.nio.ByteBuffer.wrap(striped.getBytes()).getInt());
    }
    assertTrue(client.lookupKey("vol1", "fsbucket", "dir/part-0000").getKey().hasEc());
  }

  private int datanodeIndex(UUID id) {
    for (int i = 1; ; i++) {
      if (mini().cluster().datanode(i).id().uuid().equals(id)) {
        return i;
      }
    }
  }

  private MiniCluster mini() {
    return cluster.mini();
  }

  private KeyInfo write(OpenKeyRequest.Builder request, byte[] data, boolean small) throws Exception {
    OpenKeyRequest r = request.setVolume("vol1").setSize(data.length).build();
    KeyOutputStream out = small ? client.createSmallKey(r) : client.createKey(r);
    out.write(data);
    out.close();
    return out.committedKey();
  }

  private byte[] read(String bucket, String key) throws Exception {
    try (InputStream in = client.readKey("vol1", bucket, key)) {
      return in.readAllBytes();
    }
  }

  private static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
