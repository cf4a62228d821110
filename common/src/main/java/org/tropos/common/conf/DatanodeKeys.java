package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Keys of the datanode. */
public final class DatanodeKeys {
  public static final ConfigKey<List<String>> DATA_DIRS = ConfigKey.of("hdds.datanode.dir", ConfigType.LIST, "",
      "Data volumes (one per disk) holding containers; empty = <first ozone.metadata.dirs entry>/hdds.");
  public static final ConfigKey<List<String>> RAFT_LOG_DIRS = ConfigKey.of(
      "hdds.container.ratis.datanode.storage.dir", ConfigType.LIST, "",
      "RaftLog directories (one per disk); each pipeline's log goes to the one with the fewest;"
          + " empty = <first ozone.metadata.dirs entry>/ratis.");
  public static final ConfigKey<String> ID_DIR = ConfigKey.of("ozone.scm.datanode.id.dir", ConfigType.STRING, "",
      "Directory of the datanode.id file; empty = the first ozone.metadata.dirs entry.");
  public static final ConfigKey<String> HOSTNAME = ConfigKey.of("hdds.datanode.hostname", ConfigType.STRING, "",
      "Host name or IP the datanode advertises and binds to; empty = this machine's host name.");
  public static final ConfigKey<Duration> HEARTBEAT_INTERVAL = ScmKeys.positive(ConfigKey.of(
      "hdds.heartbeat.interval", ConfigType.duration(ChronoUnit.MILLIS), "30s",
      "How often a datanode heartbeats to SCM with its reports."));
  public static final ConfigKey<Integer> RATIS_PORT = ScmKeys.port("hdds.container.ratis.ipc.port", 9858,
      "Port of the datanode's Ratis server (writes).");
  public static final ConfigKey<Long> RATIS_SNAPSHOT_THRESHOLD = ConfigKey.of("hdds.ratis.snapshot.threshold",
      ConfigType.LONG, "10000", "Log entries between two snapshots of a pipeline's Raft group on a datanode; after"
          + " one, the log is trimmed only up to what every member has.").requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Integer> READ_PORT = ScmKeys.port("hdds.container.ipc.port", 9859,
      "Port of the datanode's block read server.");
  public static final ConfigKey<String> HTTP_ADDRESS = ConfigKey.of("hdds.datanode.http-address",
      ConfigType.STRING, "0.0.0.0:9882", "host:port of the datanode's status port (/prom, /health, /ready); port 0 ="
          + " any free port.");
  public static final ConfigKey<String> HTTPS_ADDRESS = ConfigKey.of("hdds.datanode.https-address",
      ConfigType.STRING, "0.0.0.0:9883", "host:port of the datanode's HTTPS status port (ozone.http.policy); port 0"
          + " = any free port.");
  public static final ConfigKey<Duration> DISK_CHECK_INTERVAL = ScmKeys.positive(ConfigKey.of(
      "hdds.datanode.periodic.disk.check.interval.minutes", ConfigType.duration(ChronoUnit.MINUTES), "60",
      "How often every volume and RaftLog directory is checked by writing, syncing and reading back a file."));
  public static final ConfigKey<Duration> DISK_CHECK_TIMEOUT = ScmKeys.positive(ConfigKey.of(
      "hdds.datanode.disk.check.timeout", ConfigType.duration(ChronoUnit.MILLIS), "10m",
      "A disk check that takes longer than this fails the directory."));
  public static final ConfigKey<Integer> REPLICATION_STREAMS = ConfigKey.of(
      "hdds.datanode.replication.streams.limit", ConfigType.INT, "10",
      "How many container copies a datanode makes at once (each reads from another datanode and writes to disk).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Duration> REPLICATION_TIMEOUT = ScmKeys.positive(ConfigKey.of(
      "hdds.datanode.replication.timeout", ConfigType.duration(ChronoUnit.MILLIS), "60s",
      "How long a container copy waits on its source before it tries the next one."));
  public static final ConfigKey<Boolean> SCRUB_ENABLED = ConfigKey.of("hdds.container.scrub.enabled",
      ConfigType.BOOLEAN, "true", "Whether each datanode checks its closed containers' metadata and data in the"
          + " background and marks damaged replicas UNHEALTHY (SCM then replaces them).");
  public static final ConfigKey<Duration> SCRUB_METADATA_INTERVAL = ScmKeys.positive(ConfigKey.of(
      "hdds.container.scrub.metadata.scan.interval", ConfigType.duration(ChronoUnit.MILLIS), "3h",
      "How often every closed replica's descriptor and block files are checked."));
  public static final ConfigKey<Duration> SCRUB_DATA_INTERVAL = ScmKeys.positive(ConfigKey.of(
      "hdds.container.scrub.data.scan.interval", ConfigType.duration(ChronoUnit.MILLIS), "7d",
      "The pause between two passes of a volume's data scrub, which reads every block and verifies its"
          + " checksums."));
  public static final ConfigKey<Duration> SCRUB_MIN_GAP = ConfigKey.of("hdds.container.scrub.min.gap",
      ConfigType.duration(ChronoUnit.MILLIS), "15m", "The least time between two data checks of one replica.")
      .requiring(d -> !d.isNegative(), ">= 0");
  public static final ConfigKey<DataSize> SCRUB_BYTES_PER_SECOND = ConfigKey.of(
      "hdds.container.scrub.volume.bytes.per.second", ConfigType.SIZE, "5MB",
      "The most bytes per second the data scrub reads from each volume.").requiring(s -> s.bytes() > 0, "> 0");

  public static final ConfigKey<DataSize> VOLUME_MIN_FREE_SPACE = ConfigKey.of(
      "hdds.datanode.volume.min.free.space", ConfigType.SIZE, "5GB",
      "Free space kept back on each data volume: a pipeline's leader refuses new writes to a volume with no more"
          + " than this available, and SCM closes the pipelines of a datanode with no volume above it, so the"
          + " writes already accepted still fit on every replica. Each volume also keeps 16 MB for its block"
          + " database: chunks stop with 8 MB free, and a file of 8 MB more is given back to it when something"
          + " else fills the volume.");
  public static final ConfigKey<DataSize> DIRECT_IO_THRESHOLD = ConfigKey.of(
      "hdds.datanode.direct.io.threshold", ConfigType.SIZE, "64KB",
      "Chunks of at least this size are written to block files with O_DIRECT, past the page cache (a tail that is"
          + " not a multiple of 4 KB too when it ends the file, padded to 4 KB with zeros), and reads of at least"
          + " this size are served the same way; smaller ones go through the page cache and are read with sendfile."
          + " 0 sends everything through the page cache.").requiring(s -> s.bytes() >= 0, ">= 0");

  private DatanodeKeys() {
  }
}
