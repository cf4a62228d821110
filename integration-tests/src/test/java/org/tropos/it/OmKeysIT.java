package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.client.KeyInputStream;
import org.tropos.client.KeyOutputStream;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ExpectedBucket;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.tools.Tropos;

/** Keys end to end through the OM: the Java client and {@code tropos sh} on an in-process cluster. */
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OmKeysIT {
  private static final int MB = 1 << 20;
  /** 4 MB blocks of 1 MB chunks, so a 9 MB key spans three blocks. */
  private static final Map<String, String> CLUSTER = Map.of("ozone.scm.block.size", "4MB",
      "ozone.scm.chunk.size", "1MB", "ozone.scm.datanode.pipeline.limit", "2",
      "hdds.scm.block.deleting.service.interval", "200ms");

  private Path dir;
  private MiniCluster mini;
  private TroposClient client;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, CLUSTER);
    mini.awaitAllHealthy();
    mini.awaitOpenPipelines(1);
    client = TroposClient.create(mini.clientConfig().with(CLUSTER));
    client.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("it").build());
    client.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("fso").build());
    client.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("flat")
        .setLayout(BucketLayout.OBJECT_STORE).build());
  }

  @AfterAll
  void stop() {
    if (client != null) {
      client.close();
    }
    if (mini != null) {
      mini.close();
    }
  }

  private static byte[] random(int size, long seed) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }

  private void put(String bucket, String key, byte[] data) throws Exception {
    try (OutputStream out = client.createKey("vol1", bucket, key, data.length)) {
      out.write(data);
    }
  }

  private byte[] get(String bucket, String key) throws Exception {
    try (InputStream in = client.readKey("vol1", bucket, key)) {
      return in.readAllBytes();
    }
  }

  @Test
  void keysOfEverySizeReadBackBitExactInBothLayouts() throws Exception {
    for (int size : new int[] {0, 1024, 4 * MB + 1, 9 * MB}) {
      byte[] data = random(size, size);
      put("fso", "sizes/k" + size, data);
      put("flat", "sizes/k" + size, data);
      assertArrayEquals(data, get("fso", "sizes/k" + size), size + " bytes, FSO");
      assertArrayEquals(data, get("flat", "sizes/k" + size), size + " bytes, OBJECT_STORE");
    }
    assertEquals(List.of("sizes/", "sizes/k0", "sizes/k1024", "sizes/k4194305", "sizes/k9437184"), client.listKeys(
        "vol1", "fso", "sizes/", "", 0).getKeysList().stream().map(KeyInfo::getName).toList(),
        "an FSO bucket's keys, its directory first");
    KeyInfo big = client.getKey("vol1", "fso", "sizes/k" + 9 * MB);
    assertEquals(3, big.getBlocksCount(), "9 MB in 4 MB blocks");
    try (KeyInputStream in = client.readKey("vol1", "fso", "sizes/k" + 9 * MB)) {
      in.seek(5 * MB - 3);
      byte[] some = in.readNBytes(10);
      byte[] expected = new byte[10];
      System.arraycopy(random(9 * MB, 9 * MB), 5 * MB - 3, expected, 0, 10);
      assertArrayEquals(expected, some, "a seek across a block boundary");
    }
  }

  /** A small key as the S3 gateway writes one: its size known, its block leased, opened with its commit. */
  private OpenKeyRequest small(BucketInfo bucket, String key, int size) {
    return OpenKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket.getName()).setKey(key).setSize(size)
        .setFactor(bucket.getFactor()).setCreateParents(true).setExpectedBucket(ExpectedBucket.newBuilder()
            .setObjectId(bucket.getObjectId()).setOwner(bucket.getOwner()).setAcl(bucket.getAcl())).build();
  }

  @Test
  void smallKeysWrittenToLeasedBlocksAreOpenedWithTheirCommitAndReadBack() throws Exception {
    for (String layout : List.of("fso", "flat")) {
      BucketInfo bucket = client.getBucket("vol1", layout);
      for (int size : new int[] {0, 1, 100 << 10, MB}) {
        byte[] data = random(size, size + 1);
        KeyOutputStream out = client.createSmallKey(small(bucket, "small/k" + size, size));
        assertTrue(out.opensWithCommit(), size + " bytes in " + layout + ": not opened before its commit");
        try (out) {
          out.write(data);
        }
        assertArrayEquals(data, get(layout, "small/k" + size), size + " bytes, " + layout);
      }
    }
    BucketInfo flat = client.getBucket("vol1", "flat");
    KeyOutputStream synced = client.createSmallKey(small(flat, "small/synced", 10));
    synced.write(random(10, 3));
    synced.hsync();
    assertEquals(10, client.getKey("vol1", "flat", "small/synced").getSize(), "visible at its hsync");
    synced.write(random(5, 4));
    synced.close();
    assertEquals(15, client.getKey("vol1", "flat", "small/synced").getSize(), "the same key, committed again");
  }

  @Test
  void aSmallKeyWhoseBucketChangedBeforeItsCommitIsCommittedOnlyWhenAskedAgain() throws Exception {
    client.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("changing")
        .setLayout(BucketLayout.OBJECT_STORE).build());
    BucketInfo seen = client.getBucket("vol1", "changing");
    byte[] data = random(100 << 10, 9);
    KeyOutputStream out = client.createSmallKey(small(seen, "k", data.length));
    out.write(data);
    client.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol1").setName("changing")
        .setAcl(CannedAcl.ACL_PUBLIC_READ).build());
    IOException refused = assertThrows(IOException.class, out::close);
    assertEquals(OmResult.BUCKET_CHANGED, ((OmException) refused.getCause()).result());
    OmException missing = assertThrows(OmException.class, () -> client.getKey("vol1", "changing", "k"));
    assertEquals(OmResult.KEY_NOT_FOUND, missing.result());
    out.commitAs(small(client.getBucket("vol1", "changing"), "k", data.length));
    assertArrayEquals(data, get("changing", "k"), "committed as decided on the bucket as it is now");
  }

  @Test
  void aTransferAfterReadsStreamsTheRestAcrossBlocks() throws Exception {
    byte[] data = random(9 * MB, 7);
    put("flat", "transfer", data);
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (KeyInputStream in = client.readKey("vol1", "flat", "transfer")) {
      in.seek(3 * MB);
      got.write(in.readNBytes(10));
      in.transferTo(5 * MB, piece -> {
        byte[] bytes = new byte[piece.remaining()];
        piece.get(bytes);
        got.writeBytes(bytes);
      });
      assertEquals(8 * MB + 10, in.position(), "the position after the transfer");
      assertThrows(IOException.class, () -> in.transferTo(MB, piece -> { }), "past the end");
      got.write(in.readAllBytes());
    }
    assertArrayEquals(Arrays.copyOfRange(data, 3 * MB, 9 * MB), got.toByteArray(),
        "read, streamed across a block boundary from the buffered window on, then read again");
  }

  @Test
  void aKeyIsInvisibleUntilItsStreamIsClosed() throws Exception {
    OutputStream out = client.createKey("vol1", "flat", "pending", 10);
    out.write(random(10, 1));
    assertEquals(OmResult.KEY_NOT_FOUND, assertThrows(OmException.class,
        () -> client.getKey("vol1", "flat", "pending")).result());
    out.close();
    assertEquals(10, client.getKey("vol1", "flat", "pending").getSize());
  }

  @Test
  void directoriesRenameAndDeleteAsOneChange() throws Exception {
    byte[] data = random(2000, 7);
    for (int i = 0; i < 5; i++) {
      put("fso", "jobs/tmp/part-" + i, data);
    }
    client.renameKey("vol1", "fso", "jobs/tmp", "jobs/final");
    assertArrayEquals(data, get("fso", "jobs/final/part-3"));
    assertEquals(5, client.listStatus("vol1", "fso", "jobs/final", "", 0).getEntriesCount());
    client.deleteKey("vol1", "fso", "jobs", true);
    assertEquals(OmResult.KEY_NOT_FOUND, assertThrows(OmException.class,
        () -> client.getFileStatus("vol1", "fso", "jobs/final/part-1")).result());
  }

  @Test
  void anOmRestartKeepsEveryCommittedKey() throws Exception {
    byte[] data = random(300_000, 11);
    put("fso", "durable/a", data);
    put("flat", "durable-b", data);
    mini.cluster().restartOm();
    assertArrayEquals(data, get("fso", "durable/a"));
    assertArrayEquals(data, get("flat", "durable-b"));
    assertTrue(client.listKeys("vol1", "flat", "durable", "", 0).getKeysList().stream()
        .anyMatch(k -> k.getName().equals("durable-b")));
  }

  /** The block files of a key on every datanode, all of which exist now. */
  private List<Path> blockFiles(KeyInfo key) throws Exception {
    List<Path> files = new ArrayList<>();
    for (int i = 1; i <= mini.cluster().datanodeCount(); i++) {
      for (KeyBlock b : key.getBlocksList()) {
        Path file = MiniCluster.blockFile(mini.cluster().datanode(i), b.getBlockId(), b.getLength());
        assertTrue(Files.exists(file), file.toString());
        files.add(file);
      }
    }
    return files;
  }

  @Test
  void deletedAndOverwrittenKeysLoseTheirBlocksOnEveryReplicaAfterTheKeyIsGone() throws Exception {
    put("fso", "gc/deleted", random(5 * MB, 21));
    put("flat", "gc-overwritten", random(MB, 22));
    List<Path> deleted = blockFiles(client.getKey("vol1", "fso", "gc/deleted"));
    List<Path> overwritten = blockFiles(client.getKey("vol1", "flat", "gc-overwritten"));
    put("flat", "gc-overwritten", random(2 * MB, 23));
    client.deleteKey("vol1", "fso", "gc", true);
    Await.until("the blocks of the deleted and the replaced key gone from every replica", MiniCluster.WAIT,
        () -> java.util.stream.Stream.concat(deleted.stream(), overwritten.stream()).filter(Files::exists).toList(),
        List::isEmpty);
    assertArrayEquals(random(2 * MB, 23), get("flat", "gc-overwritten"), "the new key is intact");
  }

  @Test
  void theStatusPortServesOccMetricsInPrometheusFormat() throws Exception {
    put("flat", "metered", random(100, 5));
    java.net.http.HttpResponse<String> prom = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
            + mini.cluster().om().httpPort() + "/prom")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, prom.statusCode());
    double commits = prom.body().lines().filter(l -> l.startsWith("om_occ_commits_total ")).mapToDouble(
        l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1))).findFirst().orElse(-1);
    assertTrue(commits > 0, prom.body());
    assertTrue(prom.body().contains("om_request_latency_seconds_bucket{le=\"0.01\"}"), prom.body());
  }

  @Test
  void shellPutsGetsListsRenamesAndDeletes() throws Exception {
    Path conf = mini.clientConfDir(dir.resolve("conf"));
    Path local = dir.resolve("local.bin");
    Files.write(local, random(1_500_000, 3));
    assertEquals(0, sh(conf, "volume", "create", "/shvol"));
    assertEquals(0, sh(conf, "bucket", "create", "/shvol/bucket1", "--layout", "OBJECT_STORE"));
    assertEquals(0, sh(conf, "key", "put", "/shvol/bucket1/a/key", local.toString()));
    Path back = dir.resolve("back.bin");
    assertEquals(0, sh(conf, "key", "get", "/shvol/bucket1/a/key", back.toString()));
    assertArrayEquals(Files.readAllBytes(local), Files.readAllBytes(back));
    assertEquals(0, sh(conf, "key", "rename", "/shvol/bucket1", "a/key", "b/key"));
    assertEquals(0, sh(conf, "bucket", "link", "/shvol/bucket1", "/shvol/linked"));
    Path viaLink = dir.resolve("via-link.bin");
    assertEquals(0, sh(conf, "key", "get", "/shvol/linked/b/key", viaLink.toString()));
    assertArrayEquals(Files.readAllBytes(local), Files.readAllBytes(viaLink), "a link shows its source's keys");
    assertEquals(0, sh(conf, "bucket", "delete", "/shvol/linked"));
    assertEquals(1, sh(conf, "bucket", "link", "/shvol/missing", "/shvol/linked"), "a link to nothing is refused");
    StringWriter listing = new StringWriter();
    assertEquals(0, Tropos.run(new PrintWriter(listing), new PrintWriter(new StringWriter()), "sh", "key", "list",
        "/shvol/bucket1", "--conf", conf.toString()));
    assertTrue(listing.toString().contains("\"name\" : \"b/key\""), listing.toString());
    assertEquals(0, sh(conf, "key", "delete", "/shvol/bucket1/b/key"));
    assertEquals(1, sh(conf, "key", "get", "/shvol/bucket1/b/key", dir.resolve("gone").toString()));
    assertEquals(1, sh(conf, "volume", "delete", "/shvol"), "not empty");
    assertEquals(0, sh(conf, "bucket", "delete", "/shvol/bucket1"));
    assertEquals(0, sh(conf, "volume", "delete", "/shvol"));
  }

  private static int sh(Path conf, String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "sh";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--conf";
    all[args.length + 2] = conf.toString();
    return Tropos.run(new PrintWriter(new ByteArrayOutputStream()), new PrintWriter(new StringWriter()), all);
  }

}
