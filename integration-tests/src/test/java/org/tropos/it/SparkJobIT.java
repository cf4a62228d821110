package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Spark job (Spark 4, local mode, in a JVM of its own with Spark's classpath and the shaded client jar)
 * writes a table partitioned by day as Parquet through tropos:// with Spark's default committer and reads it
 * back; the table is then checked from here.
 */
class SparkJobIT {
  /** What Spark needs opened on Java 17 (spark-submit passes the same). */
  private static final List<String> SPARK_JVM_OPTIONS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false");

  @TempDir
  Path dir;

  @Test
  void sparkWritesAndReadsBackAPartitionedParquetTable() throws Exception {
    Map<String, String> settings = Map.of("ozone.scm.block.size", "4MB", "ozone.scm.chunk.size", "1MB");
    try (MiniCluster mini = new MiniCluster(dir.resolve("cluster"), 3, 1, settings)) {
      mini.awaitAllHealthy();
      mini.awaitOpenPipelines(1);
      Path conf = Files.createDirectories(dir.resolve("spark-conf"));
      Files.writeString(conf.resolve("core-site.xml"), "<configuration><property><name>ozone.scm.block.client.address"
          + "</name><value>" + mini.scmBlockAddress() + "</value></property></configuration>\n");
      String table = "tropos://" + mini.omAddress() + "/warehouse/sales/events";
      Process job = new ProcessBuilder(command(conf, table)).redirectErrorStream(true)
          .redirectOutput(dir.resolve("spark.log").toFile()).start();
      int exit = job.waitFor();
      String log = Files.readString(dir.resolve("spark.log"));
      assertEquals(0, exit, "the Spark job failed:\n" + log.substring(Math.max(0, log.length() - 6000)));
      assertTrue(log.contains("rows 100000, days 7"), log.substring(Math.max(0, log.length() - 3000)));

      Configuration hadoop = new Configuration();
      mini.clientConfig().with(settings).explicitValues().forEach(hadoop::set);
      try (FileSystem fs = FileSystem.newInstance(URI.create("tropos://" + mini.omAddress()), hadoop)) {
        FileStatus[] partitions = fs.listStatus(new org.apache.hadoop.fs.Path("/warehouse/sales/events"));
        List<String> names = Arrays.stream(partitions).map(s -> s.getPath().getName()).sorted().toList();
        assertEquals(List.of("_SUCCESS", "day=0", "day=1", "day=2", "day=3", "day=4", "day=5", "day=6"), names);
        assertTrue(fs.listStatus(new org.apache.hadoop.fs.Path("/warehouse/sales/events/day=3")).length > 0);
      }
    }
  }

  private static List<String> command(Path conf, String table) throws Exception {
    String sparkClasspath = Files.readString(Path.of("..", "spark-job", "target", "spark-classpath.txt")).trim();
    Path jobJar;
    Path shaded;
    try (var jobs = Files.list(Path.of("..", "spark-job", "target"));
        var clients = Files.list(Path.of("..", "client", "target"))) {
      jobJar = jobs.filter(p -> p.getFileName().toString().matches("tropos-spark-job-.*\\.jar")).findFirst()
          .orElseThrow();
      shaded = clients.filter(p -> p.getFileName().toString().matches("tropos-client-.*-hadoop\\.jar"))
          .findFirst().orElseThrow();
    }
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-Xmx768m"));
    command.addAll(SPARK_JVM_OPTIONS);
    command.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, conf.toString(),
        jobJar.toAbsolutePath().toString(), shaded.toAbsolutePath().toString(), sparkClasspath),
        "org.tropos.sparkjob.PartitionedTableJob", table));
    return command;
  }
}
