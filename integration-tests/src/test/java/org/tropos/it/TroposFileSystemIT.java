package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketLayout;
import org.tropos.tools.Tropos;

/** tropos:// beyond Hadoop's contract: volumes and buckets as directories, FsShell, and job commits. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TroposFileSystemIT {
  private static final Map<String, String> SETTINGS = Map.of("ozone.scm.block.size", "4MB",
      "ozone.scm.chunk.size", "1MB");
  private Path dir;
  private MiniCluster mini;
  private Configuration conf;
  private FileSystem fs;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, SETTINGS);
    mini.awaitAllHealthy();
    mini.awaitOpenPipelines(1);
    conf = new Configuration();
    mini.clientConfig().with(SETTINGS).explicitValues().forEach(conf::set);
    fs = FileSystem.newInstance(URI.create("tropos://" + mini.omAddress()), conf);
  }

  @AfterAll
  void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (mini != null) {
      mini.close();
    }
  }

  private static org.apache.hadoop.fs.Path path(String p) {
    return new org.apache.hadoop.fs.Path(p);
  }

  private void write(String p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(path(p))) {
      out.write(data);
    }
  }

  private byte[] read(String p) throws IOException {
    try (FSDataInputStream in = fs.open(path(p))) {
      return in.readAllBytes();
    }
  }

  @Test
  void volumesAndBucketsAreTheFirstTwoDirectoryLevels() throws Exception {
    assertTrue(fs.mkdirs(path("/lake/raw")), "a directory at bucket level creates the volume and the bucket");
    try (TroposClient client = TroposClient.create(mini.clientConfig())) {
      assertEquals(BucketLayout.FILE_SYSTEM_OPTIMIZED, client.getBucket("lake", "raw").getLayout());
    }
    write("/lake/raw/2026/11/events.json", "{}".getBytes());
    assertTrue(Arrays.stream(fs.listStatus(path("/"))).anyMatch(s -> s.getPath().getName().equals("lake")));
    FileStatus[] buckets = fs.listStatus(path("/lake"));
    assertEquals(List.of("raw"), Arrays.stream(buckets).map(s -> s.getPath().getName()).toList());
    assertTrue(buckets[0].isDirectory());
    assertTrue(fs.getFileStatus(path("/lake/raw/2026")).isDirectory(), "parents of a created file exist");
    assertThrows(IOException.class, () -> fs.rename(path("/lake/raw/2026"), path("/lake/other/2026")),
        "a rename stays inside one bucket");
    assertFalse(fs.delete(path("/lake/raw/missing"), true));
    assertTrue(fs.delete(path("/lake"), true), "a recursive delete of a volume takes its buckets");
    assertFalse(fs.exists(path("/lake")));
    Map<String, Long> operations = org.apache.hadoop.fs.statistics.IOStatisticsSupport.retrieveIOStatistics(fs)
        .counters();
    assertTrue(operations.get("op_mkdirs") >= 1 && operations.get("op_delete") >= 2
        && operations.get("op_rename") >= 1, operations.toString());
  }

  @Test
  void aDirectoryOfManyFilesRenamesAndDeletesWhole() throws Exception {
    byte[] data = new byte[3000];
    new Random(1).nextBytes(data);
    for (int i = 0; i < 300; i++) {
      write("/big/bucket/src/f" + i, data);
    }
    List<String> paged = new ArrayList<>();
    RemoteIterator<FileStatus> it = fs.listStatusIterator(path("/big/bucket/src"));
    while (it.hasNext()) {
      paged.add(it.next().getPath().getName());
    }
    assertEquals(300, paged.size());
    assertTrue(fs.rename(path("/big/bucket/src"), path("/big/bucket/dst")));
    assertFalse(fs.exists(path("/big/bucket/src")));
    assertArrayEquals(data, read("/big/bucket/dst/f299"));
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(path("/big/bucket/dst"), true);
    int count = 0;
    while (files.hasNext()) {
      files.next();
      count++;
    }
    assertEquals(300, count);
    assertTrue(fs.delete(path("/big/bucket/dst"), true));
    assertFalse(fs.exists(path("/big/bucket/dst/f1")));
  }

  /** What an hsync covers is on every replica and readable, with its length, while the writer goes on. */
  @Test
  void hsyncMakesTheBytesSoFarVisibleAndTheWriterGoesOn() throws Exception {
    byte[] data = new byte[6 << 20];
    new Random(4).nextBytes(data);
    org.apache.hadoop.fs.Path log = path("/wal/bucket/server.log");
    try (FSDataOutputStream out = fs.create(log, false);
        FileSystem reader = FileSystem.newInstance(fs.getUri(), conf)) {
      assertTrue(out.hasCapability("hsync") && out.hasCapability("hflush"));
      out.write(data, 0, 1000);
      out.hsync();
      assertEquals(1000, reader.getFileStatus(log).getLen());
      try (FSDataInputStream in = reader.open(log)) {
        assertArrayEquals(Arrays.copyOf(data, 1000), in.readAllBytes());
      }
      out.write(data, 1000, data.length - 1000);
      out.hflush();
      assertEquals(data.length, reader.getFileStatus(log).getLen());
      out.write(data, 0, 10);
    }
    byte[] all = read(log.toString());
    assertEquals(data.length + 10, all.length);
    assertArrayEquals(data, Arrays.copyOf(all, data.length));
  }

  /** The same bytes give the same composite CRC whatever the block and chunk sizes: the CRC32C of the bytes. */
  @Test
  void theFileChecksumIsTheCrcOfTheBytesWhateverTheBlockLayout() throws Exception {
    byte[] data = new byte[(9 << 20) + 12_345];
    new Random(5).nextBytes(data);
    write("/sums/bucket/four-mb-blocks", data);
    Configuration small = new Configuration(conf);
    small.set("ozone.scm.block.size", "1MB");
    small.set("ozone.scm.chunk.size", "256KB");
    try (FileSystem smallBlocks = FileSystem.newInstance(fs.getUri(), small)) {
      try (FSDataOutputStream out = smallBlocks.create(path("/sums/bucket/one-mb-blocks"))) {
        out.write(data);
      }
    }
    assertEquals(10, fs.getFileBlockLocations(fs.getFileStatus(path("/sums/bucket/one-mb-blocks")), 0,
        data.length).length, "the second copy really has another layout");
    org.apache.hadoop.fs.FileChecksum a = fs.getFileChecksum(path("/sums/bucket/four-mb-blocks"));
    org.apache.hadoop.fs.FileChecksum b = fs.getFileChecksum(path("/sums/bucket/one-mb-blocks"));
    assertEquals("COMPOSITE-CRC32C", a.getAlgorithmName());
    assertEquals(a, b);
    java.util.zip.CRC32C whole = new java.util.zip.CRC32C();
    whole.update(data);
    assertEquals((int) whole.getValue(), java.nio.ByteBuffer.wrap(a.getBytes()).getInt(), "the CRC32C of the bytes");
    data[data.length / 2] ^= 1;
    write("/sums/bucket/one-bit-off", data);
    assertFalse(a.equals(fs.getFileChecksum(path("/sums/bucket/one-bit-off"))));
  }

  @Test
  void timesOwnersAndPermissionsAreKeptByTheOm() throws Exception {
    write("/attrs/bucket/dir/file", "x".getBytes());
    org.apache.hadoop.fs.Path file = path("/attrs/bucket/dir/file");
    org.apache.hadoop.fs.Path dirPath = path("/attrs/bucket/dir");
    fs.setTimes(file, 1_000_000L, 2_000_000L);
    fs.setPermission(file, new org.apache.hadoop.fs.permission.FsPermission((short) 0640));
    fs.setOwner(file, "hive", "analysts");
    fs.setOwner(dirPath, null, "etl");
    fs.setPermission(dirPath, new org.apache.hadoop.fs.permission.FsPermission((short) 0750));
    try (FileSystem other = FileSystem.newInstance(fs.getUri(), conf)) {
      FileStatus f = other.getFileStatus(file);
      assertEquals(1_000_000L, f.getModificationTime());
      assertEquals(2_000_000L, f.getAccessTime());
      assertEquals((short) 0640, f.getPermission().toShort());
      assertEquals("hive", f.getOwner());
      assertEquals("analysts", f.getGroup());
      FileStatus d = other.getFileStatus(dirPath);
      assertEquals("etl", d.getGroup());
      assertEquals((short) 0750, d.getPermission().toShort());
      fs.setTimes(file, -1, 3_000_000L);
      assertEquals(1_000_000L, other.getFileStatus(file).getModificationTime(), "-1 keeps a time");
    }
    assertThrows(java.io.FileNotFoundException.class, () -> fs.setTimes(path("/attrs/bucket/missing"), 1, 1));
  }

  /** A create's permission (less the umask) and a smaller block size are followed; replication is the bucket's. */
  @Test
  void aCreatesHintsAreFollowed() throws Exception {
    byte[] data = new byte[(5 << 20) / 2];
    new Random(6).nextBytes(data);
    org.apache.hadoop.fs.Path file = path("/hints/bucket/small-blocks");
    try (FSDataOutputStream out = fs.create(file, new org.apache.hadoop.fs.permission.FsPermission((short) 0640),
        true, 4096, (short) 1, 1 << 20, null)) {
      out.write(data);
    }
    FileStatus status = fs.getFileStatus(file);
    assertEquals((short) 0640, status.getPermission().toShort());
    assertEquals(3, status.getReplication(), "the bucket's replication, whatever was asked");
    org.apache.hadoop.fs.BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertEquals(3, blocks.length, "2.5 MB in 1 MB blocks");
    assertArrayEquals(data, read(file.toString()));
  }

  @Test
  void blockLocationsNameEveryBlocksReplicasWithTheirRacks() throws Exception {
    byte[] data = new byte[9 << 20];
    new Random(3).nextBytes(data);
    write("/locality/bucket/file", data);
    FileStatus status = fs.getFileStatus(path("/locality/bucket/file"));
    org.apache.hadoop.fs.BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertEquals(3, blocks.length, "9 MB in 4 MB blocks");
    assertEquals(List.of(0L, 4L << 20, 8L << 20), Arrays.stream(blocks).map(b -> b.getOffset()).toList());
    for (org.apache.hadoop.fs.BlockLocation b : blocks) {
      assertEquals(3, b.getHosts().length, "three replicas");
      for (String rack : b.getTopologyPaths()) {
        assertTrue(rack.startsWith("/rack1/") || rack.startsWith("/rack2/"), rack);
      }
    }
    assertEquals(1, fs.getFileBlockLocations(status, (4 << 20) + 1, 10).length, "only the blocks in the range");
    RemoteIterator<LocatedFileStatus> listed = fs.listLocatedStatus(path("/locality/bucket"));
    assertEquals(3, listed.next().getBlockLocations().length);
  }

  @Test
  void theShellListsPutsGetsMovesCountsAndRemoves() throws Exception {
    Path conf = mini.clientConfDir(dir.resolve("conf"));
    Path local = dir.resolve("local.bin");
    byte[] data = new byte[1_500_000];
    new Random(2).nextBytes(data);
    Files.write(local, data);
    assertEquals(0, shell(conf, "-mkdir", "-p", "/shell/bucket/in"));
    assertEquals(0, shell(conf, "-put", local.toString(), "/shell/bucket/in/data.bin"));
    assertEquals(0, shell(conf, "-mv", "/shell/bucket/in", "/shell/bucket/out"));
    assertEquals(0, shell(conf, "-ls", "-R", "/shell"));
    assertEquals(0, shell(conf, "-du", "-s", "/shell/bucket"));
    assertEquals(0, shell(conf, "-count", "/shell/bucket"));
    Path back = dir.resolve("back.bin");
    assertEquals(0, shell(conf, "-get", "/shell/bucket/out/data.bin", back.toString()));
    assertArrayEquals(data, Files.readAllBytes(back));
    assertEquals(0, shell(conf, "-rm", "-r", "/shell/bucket/out"));
    assertFalse(fs.exists(path("/shell/bucket/out")));
    assertEquals(1, shell(conf, "-ls", "/shell/bucket/out"), "a missing path fails");
  }

  /**
   * The shaded client jar is all a Hadoop process needs: Hadoop's own FsShell, in a JVM whose classpath has
   * Hadoop and that jar but none of our modules, gRPC, Protobuf or Ratis, writes and reads a file.
   */
  @Test
  void theShadedJarAloneServesHadoopsShell() throws Exception {
    Path jar;
    try (Stream<Path> built = Files.list(Path.of("..", "client", "target"))) {
      jar = built.filter(p -> p.getFileName().toString().matches("tropos-client-.*-hadoop\\.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("client/target has no shaded jar: build the client module first"));
    }
    Path hadoopConf = Files.createDirectories(dir.resolve("hadoop-conf"));
    Files.writeString(hadoopConf.resolve("core-site.xml"), "<configuration/>\n");
    List<String> classpath = new ArrayList<>(List.of(hadoopConf.toString(), jar.toAbsolutePath().toString()));
    String testClasspath = Files.readString(Path.of("target", "test-classpath.txt")).trim();
    for (String entry : testClasspath.split(java.io.File.pathSeparator)) {
      String name = Path.of(entry).getFileName().toString();
      if (!name.matches("(tropos|grpc|protobuf|ratis|perfmark|proto-google).*")) {
        classpath.add(entry);
      }
    }
    Path local = dir.resolve("shaded-in.txt");
    Files.writeString(local, "written by a process that has only the shaded jar\n");
    String fsUri = "tropos://" + mini.omAddress();
    assertTrue(fs.mkdirs(path("/shaded/bucket")));
    Process put = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", String.join(java.io.File.pathSeparator, classpath), "org.apache.hadoop.fs.FsShell",
        "-D", "fs.defaultFS=" + fsUri, "-D", "ozone.scm.block.client.address=" + mini.scmBlockAddress(),
        "-put", local.toString(), "/shaded/bucket/in.txt").redirectErrorStream(true).start();
    String output = new String(put.getInputStream().readAllBytes());
    assertEquals(0, put.waitFor(), output);
    assertEquals(Files.readString(local), new String(read("/shaded/bucket/in.txt")));
  }

  private static int shell(Path conf, String... args) {
    List<String> all = new ArrayList<>(List.of("fs", "--conf", conf.toString()));
    all.addAll(List.of(args));
    return Tropos.run(new PrintWriter(new ByteArrayOutputStream()), new PrintWriter(new StringWriter()),
        all.toArray(new String[0]));
  }

  /**
   * A job of four tasks writes a table partitioned by date through Hadoop's FileOutputCommitter (v1: tasks and
   * job commit by renaming directories; v2: tasks rename files into place): every row is there afterwards, and
   * the commits wrote nothing to the datanodes.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aJobCommitsAPartitionedTableThroughFileOutputCommitter(int algorithm) throws Exception {
    org.apache.hadoop.fs.Path table = fs.makeQualified(path("/warehouse/sales/v" + algorithm));
    Configuration job = new Configuration(conf);
    job.setInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, algorithm);
    job.set("fs.defaultFS", "tropos://" + mini.omAddress());
    JobID jobId = new JobID("20261121", algorithm);
    JobContext jobContext = new JobContextImpl(job, jobId);
    FileOutputCommitter jobCommitter = new FileOutputCommitter(table, jobContext);
    jobCommitter.setupJob(jobContext);
    Map<String, byte[]> expected = new TreeMap<>();
    Map<TaskAttemptContext, FileOutputCommitter> tasks = new java.util.LinkedHashMap<>();
    for (int t = 0; t < 4; t++) {
      TaskAttemptContext task = new TaskAttemptContextImpl(job, new TaskAttemptID(new TaskID(jobId, TaskType.MAP,
          t), 0));
      FileOutputCommitter committer = new FileOutputCommitter(table, task);
      committer.setupTask(task);
      for (String date : List.of("2026-11-20", "2026-11-21")) {
        String name = "date=" + date + "/part-" + t + ".parquet";
        byte[] rows = ("rows of task " + t + " for " + date).getBytes();
        try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(committer.getWorkPath(), name))) {
          out.write(rows);
        }
        expected.put(name, rows);
      }
      tasks.put(task, committer);
    }
    java.util.Set<Path> blocksBefore = blockFiles();
    assertFalse(blocksBefore.isEmpty(), "the tasks' files are in block files");
    for (Map.Entry<TaskAttemptContext, FileOutputCommitter> task : tasks.entrySet()) {
      assertTrue(task.getValue().needsTaskCommit(task.getKey()));
      task.getValue().commitTask(task.getKey());
    }
    jobCommitter.commitJob(jobContext);
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path(table, "_SUCCESS")));
    Map<String, byte[]> found = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(table, true);
    while (files.hasNext()) {
      org.apache.hadoop.fs.Path p = files.next().getPath();
      String relative = table.toUri().relativize(p.toUri()).getPath();
      if (!relative.equals("_SUCCESS")) {
        found.put(relative, read(p.toUri().getPath()));
      }
    }
    assertEquals(expected.keySet(), found.keySet(), "every task's output, nothing left over");
    expected.forEach((name, rows) -> assertArrayEquals(rows, found.get(name), name));
    assertFalse(fs.exists(new org.apache.hadoop.fs.Path(table, "_temporary")), "the job cleaned up");
    java.util.Set<Path> written = new java.util.HashSet<>(blockFiles());
    written.removeAll(blocksBefore);
    assertEquals(java.util.Set.of(), written, "committing wrote no block");
  }

  /** Every block file on the datanodes. */
  private java.util.Set<Path> blockFiles() throws IOException {
    return org.tropos.common.io.FileTrees.regularFileSizes(dir.resolve("cluster")).keySet().stream()
        .filter(p -> p.getFileName().toString().endsWith(".block")).collect(java.util.stream.Collectors.toSet());
  }
}
