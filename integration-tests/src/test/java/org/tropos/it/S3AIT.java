package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.s3a.commit.magic.MagicS3GuardCommitter;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.S3Secret;

/** Hadoop's S3A client against the gateway: directories, listing, rename (copy + delete), delete. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3AIT {
  private S3Cluster cluster;
  private Configuration conf;
  private FileSystem fs;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    S3Secret secret = cluster.secret("hadoop");
    cluster.tropos().createVolume(org.tropos.proto.om.VolumeInfo.newBuilder().setName("s3v").setOwner("s3").build());
    cluster.tropos().createBucket(BucketInfo.newBuilder().setVolume("s3v").setName("warehouse").setOwner("hadoop")
        .setLayout(org.tropos.proto.om.BucketLayout.OBJECT_STORE).build());
    conf = new Configuration(false);
    conf.set("fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    conf.set("fs.s3a.endpoint", cluster.endpoint().toString());
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.setBoolean("fs.s3a.connection.ssl.enabled", false);
    conf.set("fs.s3a.access.key", secret.getAccessId());
    conf.set("fs.s3a.secret.key", secret.getSecret());
    conf.set("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.setInt("fs.s3a.attempts.maximum", 1);
    conf.setInt("fs.s3a.retry.limit", 1);
    fs = FileSystem.newInstance(URI.create("s3a://warehouse/"), conf);
  }

  @AfterAll
  void stop() throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private void write(org.apache.hadoop.fs.Path path, String text) throws Exception {
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private String read(org.apache.hadoop.fs.Path path) throws Exception {
    try (FSDataInputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void directoriesListRenameAndDelete() throws Exception {
    org.apache.hadoop.fs.Path task = new org.apache.hadoop.fs.Path("/job/_temporary/0/task_0");
    assertTrue(fs.mkdirs(task));
    for (int i = 0; i < 5; i++) {
      write(new org.apache.hadoop.fs.Path(task, "part-" + i), "row " + i);
    }
    FileStatus[] listed = fs.listStatus(task);
    assertEquals(5, listed.length);
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path("/table/date=2026-11-21");
    assertTrue(fs.mkdirs(output.getParent()));
    assertTrue(fs.rename(task, output));
    assertFalse(fs.exists(task));
    List<String> names = Arrays.stream(fs.listStatus(output)).map(s -> s.getPath().getName()).sorted().toList();
    assertEquals(List.of("part-0", "part-1", "part-2", "part-3", "part-4"), names);
    assertEquals("row 3", read(new org.apache.hadoop.fs.Path(output, "part-3")));
    assertTrue(fs.delete(new org.apache.hadoop.fs.Path("/job"), true));
    assertFalse(fs.exists(new org.apache.hadoop.fs.Path("/job")));
    byte[] big = new byte[7 << 20];
    new java.util.Random(6).nextBytes(big);
    try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/table/big.bin"))) {
      out.write(big);
    }
    assertTrue(fs.rename(new org.apache.hadoop.fs.Path("/table/big.bin"), new org.apache.hadoop.fs.Path("/moved.bin")));
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/moved.bin"))) {
      assertArrayEquals(big, in.readAllBytes());
    }
  }

  @Test
  void aJobCommitsThroughTheMagicCommitterWithoutRenames() throws Exception {
    org.apache.hadoop.fs.Path table = new org.apache.hadoop.fs.Path("s3a://warehouse/magic-table");
    Configuration job = new Configuration(conf);
    job.setBoolean("fs.s3a.committer.magic.enabled", true);
    JobID jobId = new JobID("20261121", 1);
    TaskAttemptContext task = new TaskAttemptContextImpl(job, new TaskAttemptID(new TaskID(jobId, TaskType.MAP, 0),
        0));
    JobContext jobContext = new JobContextImpl(job, jobId);
    MagicS3GuardCommitter committer = new MagicS3GuardCommitter(table, task);
    committer.setupJob(jobContext);
    committer.setupTask(task);
    org.apache.hadoop.fs.Path work = committer.getWorkPath();
    FileSystem jobFs = work.getFileSystem(job);
    for (int i = 0; i < 3; i++) {
      try (FSDataOutputStream out = jobFs.create(new org.apache.hadoop.fs.Path(work, "part-" + i))) {
        out.write(("row " + i).getBytes(StandardCharsets.UTF_8));
      }
    }
    assertFalse(jobFs.exists(new org.apache.hadoop.fs.Path(table, "part-0")), "invisible before the commit");
    assertTrue(committer.needsTaskCommit(task));
    committer.commitTask(task);
    committer.commitJob(jobContext);
    List<String> names = Arrays.stream(jobFs.listStatus(table)).map(s -> s.getPath().getName()).sorted().toList();
    assertEquals(List.of("_SUCCESS", "part-0", "part-1", "part-2"), names);
    try (FSDataInputStream in = jobFs.open(new org.apache.hadoop.fs.Path(table, "part-2"))) {
      assertEquals("row 2", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
