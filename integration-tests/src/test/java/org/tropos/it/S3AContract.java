package org.tropos.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.rules.ExternalResource;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.VolumeInfo;

/**
 * Hadoop's FileSystem contract bound to {@code s3a://} through the S3 gateway of a mini cluster, as Hadoop runs
 * it against a store: one cluster per JVM (a test class run alone, or all of them in {@link HadoopContractOnS3AIT}),
 * two buckets in it. What S3A supports is declared in {@code contract/s3a.xml}.
 */
public class S3AContract extends AbstractFSContract {
  /** The buckets the contract runs in: an S3 bucket, and a FILE_SYSTEM_OPTIMIZED bucket linked into s3v. */
  public enum Bucket {
    OBJECT_STORE("obs"), LINKED_FSO("fso");

    private final String name;

    Bucket(String name) {
      this.name = name;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final String USER = "hadoop";
  private static S3Cluster cluster;
  private static java.nio.file.Path dir;
  private static S3Secret secret;
  private final Bucket bucket;
  private FileSystem fs;

  public S3AContract(Configuration conf, Bucket bucket) {
    super(conf);
    this.bucket = bucket;
    addConfResource("contract/s3a.xml");
  }

  /** The parameters of a contract test class: each of its tests runs in both buckets. */
  public static List<Object[]> buckets() {
    return List.of(new Object[] {Bucket.OBJECT_STORE}, new Object[] {Bucket.LINKED_FSO});
  }

  /** This JVM's cluster, as a test class's or a suite's {@code @ClassRule} (see {@link SharedClusterRule}). */
  static ExternalResource cluster() {
    return new SharedClusterRule(S3AContract::startCluster, S3AContract::stopCluster);
  }

  private static synchronized boolean startCluster() throws Exception {
    if (cluster != null) {
      return false;
    }
    dir = Files.createTempDirectory("tropos-s3a-contract");
    cluster = new S3Cluster(dir);
    TroposClient tropos = cluster.tropos();
    secret = cluster.secret(USER);
    tropos.createVolume(VolumeInfo.newBuilder().setName("s3v").setOwner(USER).build());
    tropos.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName(Bucket.OBJECT_STORE.name).setOwner(USER)
        .setLayout(BucketLayout.OBJECT_STORE).build());
    tropos.createVolume(VolumeInfo.newBuilder().setName("warehouse").setOwner(USER).build());
    tropos.createBucket(BucketInfo.newBuilder().setVolume("warehouse").setName("lake").setOwner(USER)
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    tropos.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName(Bucket.LINKED_FSO.name).setOwner(USER)
        .setSourceVolume("warehouse").setSourceBucket("lake").build());
    return true;
  }

  /** Stops it with every FileSystem instance this JVM cached. */
  private static synchronized void stopCluster() throws IOException {
    FileSystem.closeAll();
    if (cluster != null) {
      cluster.close();
      cluster = null;
      org.apache.commons.io.FileUtils.deleteDirectory(dir.toFile());
    }
  }

  @Override
  public void init() throws IOException {
    super.init();
    Configuration conf = new Configuration(getConf());
    conf.set("fs.s3a.endpoint", cluster.endpoint().toString());
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.setBoolean("fs.s3a.connection.ssl.enabled", false);
    conf.set("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.set("fs.s3a.access.key", secret.getAccessId());
    conf.set("fs.s3a.secret.key", secret.getSecret());
    conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    // Small parts, so that the multipart path runs in tests of a few MB.
    conf.set("fs.s3a.multipart.size", "5M");
    conf.set("fs.s3a.multipart.threshold", "5M");
    fs = FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), conf);
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public String getScheme() {
    return "s3a";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
