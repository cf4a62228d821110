package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Keys of the Storage Container Manager, including the addresses its clients and datanodes use. */
public final class ScmKeys {
  public static final ConfigKey<List<String>> SERVICE_IDS = ConfigKey.of("ozone.scm.service.ids",
      ConfigType.LIST, "", "The SCM HA service (one id; its SCMs in ozone.scm.nodes.<serviceId>); empty = a single"
          + " SCM.");
  public static final ConfigKey<List<String>> NODES = ConfigKey.of("ozone.scm.nodes", ConfigType.LIST, "",
      "The node ids of an SCM HA service, set as ozone.scm.nodes.<serviceId>.").withSuffixes();
  public static final ConfigKey<String> NODE_ID = ConfigKey.of("ozone.scm.node.id", ConfigType.STRING, "",
      "This SCM's node id in its HA service; empty = the node whose ozone.scm.address is a host name of this"
          + " host.");
  public static final ConfigKey<String> PRIMORDIAL_NODE_ID = ConfigKey.of("ozone.scm.primordial.node.id",
      ConfigType.STRING, "", "The SCM of an HA service that makes the cluster's identity and, when it runs secure,"
          + " its CA at its first start; the others join it with a bootstrap token. Empty = the first of"
          + " ozone.scm.nodes.<serviceId>.");
  public static final ConfigKey<String> ADDRESS = ConfigKey.of("ozone.scm.address", ConfigType.STRING, "",
      "Host of an SCM of an HA service, set as ozone.scm.address.<serviceId>.<nodeId>.").withSuffixes();
  public static final ConfigKey<Integer> RATIS_PORT = port("ozone.scm.ratis.port", 9894,
      "Port of the SCMs' Raft group (SCM HA); per node as ozone.scm.ratis.port.<serviceId>.<nodeId>.")
      .withSuffixes();
  public static final ConfigKey<List<String>> RATIS_STORAGE_DIR = ConfigKey.of("ozone.scm.ha.ratis.storage.dir",
      ConfigType.LIST, "", "Where the SCM keeps its Raft log (SCM HA); empty = scm-ratis beside SCM's database.");
  public static final ConfigKey<Long> RATIS_SNAPSHOT_THRESHOLD = ConfigKey.of(
      "ozone.scm.ha.ratis.snapshot.threshold", ConfigType.LONG, "1000", "Raft log entries applied between two"
          + " snapshots of SCM's database (SCM HA; a RocksDB checkpoint each).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Integer> RATIS_LOG_PURGE_GAP = ConfigKey.of("ozone.scm.ha.ratis.log.purge.gap",
      ConfigType.INT, "1000000", "Raft log entries a snapshot must cover beyond the last purge before the log"
          + " before it is purged (SCM HA; a follower missing purged entries installs the snapshot).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<DataSize> RATIS_SEGMENT_SIZE = ConfigKey.of("ozone.scm.ha.ratis.segment.size",
      ConfigType.SIZE, "4MB", "Size of a Raft log segment of the SCMs' group (SCM HA); purges drop whole"
          + " segments.");
  public static final ConfigKey<List<String>> NAMES = ConfigKey.of("ozone.scm.names", ConfigType.LIST, "",
      "Host names of the SCM; datanodes and clients use the first one unless a specific address is set.");
  public static final ConfigKey<String> CLIENT_ADDRESS = ConfigKey.of("ozone.scm.client.address",
      ConfigType.STRING, "", "host[:port] of SCM's client and admin service; empty = the first ozone.scm.names"
          + " entry (else localhost) with ozone.scm.client.port.");
  public static final ConfigKey<Integer> CLIENT_PORT = port("ozone.scm.client.port", 9860,
      "Port of SCM's client and admin service; per node of an SCM HA service as"
          + " ozone.scm.client.port.<serviceId>.<nodeId>.").withSuffixes();
  public static final ConfigKey<String> CLIENT_BIND_HOST = ConfigKey.of("ozone.scm.client.bind.host",
      ConfigType.STRING, "0.0.0.0", "Address SCM's client and admin service binds to.");
  public static final ConfigKey<String> HTTP_ADDRESS = ConfigKey.of("ozone.scm.http-address", ConfigType.STRING,
      "0.0.0.0:9876", "host:port of SCM's status port (/prom metrics, /health); port 0 = any free port.");
  public static final ConfigKey<String> HTTPS_ADDRESS = ConfigKey.of("ozone.scm.https-address", ConfigType.STRING,
      "0.0.0.0:9877", "host:port of SCM's HTTPS status port in a secure cluster, where the web console is served"
          + " to a client certificate of the cluster (the HTTP port then keeps /prom, /health and /ready only); port"
          + " 0 = any free port.");
  public static final ConfigKey<String> DATANODE_ADDRESS = ConfigKey.of("ozone.scm.datanode.address",
      ConfigType.STRING, "", "host[:port] of SCM's datanode service; empty = the first ozone.scm.names entry"
          + " (else localhost) with ozone.scm.datanode.port.");
  public static final ConfigKey<Integer> BLOCK_PORT = port("ozone.scm.block.client.port", 9863,
      "Port of SCM's block service (block allocation, container locations); per node of an SCM HA service as"
          + " ozone.scm.block.client.port.<serviceId>.<nodeId>.").withSuffixes();
  public static final ConfigKey<String> BLOCK_ADDRESS = ConfigKey.of("ozone.scm.block.client.address",
      ConfigType.STRING, "", "host[:port] of SCM's block service; empty = the first ozone.scm.names entry (else"
          + " localhost) with ozone.scm.block.client.port.");
  public static final ConfigKey<DataSize> CONTAINER_SIZE = ConfigKey.of("ozone.scm.container.size", ConfigType.SIZE,
      "5GB", "A container takes blocks until this many bytes are allocated in it; then it is full.")
      .requiring(s -> s.bytes() >= (1 << 20), ">= 1MB");
  public static final ConfigKey<DataSize> BLOCK_SIZE = ConfigKey.of("ozone.scm.block.size", ConfigType.SIZE,
      "256MB", "The largest block; a writer starts a new block after this many bytes.")
      .requiring(s -> s.bytes() >= (1 << 10), ">= 1KB");
  public static final ConfigKey<DataSize> CHUNK_SIZE = ConfigKey.of("ozone.scm.chunk.size", ConfigType.SIZE, "4MB",
      "A writer sends a block to its pipeline in chunks of this size (one Raft entry each).")
      .requiring(s -> s.bytes() >= (1 << 10) && s.bytes() <= (4 << 20), "between 1KB and 4MB");
  public static final ConfigKey<Integer> DATANODE_PORT = port("ozone.scm.datanode.port", 9861,
      "Port of SCM's datanode service (register, heartbeat); per node of an SCM HA service as"
          + " ozone.scm.datanode.port.<serviceId>.<nodeId>.").withSuffixes();
  public static final ConfigKey<String> DATANODE_BIND_HOST = ConfigKey.of("ozone.scm.datanode.bind.host",
      ConfigType.STRING, "0.0.0.0", "Address SCM's datanode service binds to.");
  public static final ConfigKey<List<String>> DB_DIRS = ConfigKey.of("ozone.scm.db.dirs", ConfigType.LIST, "",
      "Directory of SCM's RocksDB; empty = the first ozone.metadata.dirs entry.");
  public static final ConfigKey<Duration> STALE_NODE_INTERVAL = positive(ConfigKey.of(
      "ozone.scm.stale.node.interval", ConfigType.duration(ChronoUnit.MILLIS), "5m",
      "A datanode not heard from for this long is STALE."));
  public static final ConfigKey<Duration> DEAD_NODE_INTERVAL = positive(ConfigKey.of(
      "ozone.scm.dead.node.interval", ConfigType.duration(ChronoUnit.MILLIS), "10m",
      "A datanode not heard from for this long is DEAD; must exceed ozone.scm.stale.node.interval."));
  public static final ConfigKey<Duration> NODE_CHECK_INTERVAL = positive(ConfigKey.of(
      "ozone.scm.heartbeat.thread.interval", ConfigType.duration(ChronoUnit.MILLIS), "3s",
      "How often SCM re-evaluates datanode states from heartbeat ages."));
  public static final ConfigKey<Integer> DATANODE_PIPELINE_LIMIT = ConfigKey.of(
      "ozone.scm.datanode.pipeline.limit", ConfigType.INT, "2",
      "Raft pipelines a datanode may join; 0 = ozone.scm.pipeline.per.metadata.disk times its RaftLog disks.")
      .requiring(v -> v >= 0, ">= 0");
  public static final ConfigKey<Integer> PIPELINE_PER_METADATA_DISK = ConfigKey.of(
      "ozone.scm.pipeline.per.metadata.disk", ConfigType.INT, "2",
      "With ozone.scm.datanode.pipeline.limit = 0, a datanode joins this many pipelines per RaftLog disk.")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Integer> RATIS_PIPELINE_LIMIT = ConfigKey.of("ozone.scm.ratis.pipeline.limit",
      ConfigType.INT, "0", "Most open RATIS/THREE pipelines in the cluster; 0 = no cluster-wide limit.")
      .requiring(v -> v >= 0, ">= 0");
  public static final ConfigKey<Boolean> PIPELINE_AUTO_FACTOR_ONE = ConfigKey.of(
      "ozone.scm.pipeline.creation.auto.factor.one", ConfigType.BOOLEAN, "true",
      "Whether SCM gives every usable datanode a RATIS/ONE pipeline of its own, for keys with one replica"
          + " (ozone.replication=1, buckets with replication ONE); these count toward no pipeline limit.");
  public static final ConfigKey<Duration> PIPELINE_CREATION_INTERVAL = positive(ConfigKey.of(
      "ozone.scm.pipeline.creation.interval", ConfigType.duration(ChronoUnit.MILLIS), "120s",
      "How often SCM fills pipelines up to the limits and rebalances their leaders (also right after a datanode"
          + " registers)."));
  public static final ConfigKey<Duration> BLOCK_DELETING_SERVICE_INTERVAL = positive(ConfigKey.of(
      "hdds.scm.block.deleting.service.interval", ConfigType.duration(ChronoUnit.MILLIS), "60s",
      "How often SCM sends the blocks of deleted keys to the datanodes holding them."));
  public static final ConfigKey<Integer> BLOCK_DELETION_PER_INTERVAL_MAX = ConfigKey.of(
      "hdds.scm.block.deletion.per-interval.max", ConfigType.INT, "100000",
      "Most blocks SCM sends for deletion in one run, new and re-sent; also the most deletion transactions"
          + " awaiting acknowledgement at once.").requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Integer> BLOCK_DELETION_MAX_RETRY = ConfigKey.of(
      "ozone.scm.block.deletion.max.retry", ConfigType.INT, "4096",
      "Times SCM re-sends a deletion a datanode does not acknowledge before it stops trying (until SCM"
          + " restarts); the deletion stays in SCM's log.").requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<String> TOPOLOGY_MAPPING_IMPL = ConfigKey.of(
      "net.topology.node.switch.mapping.impl", ConfigType.STRING, "org.apache.hadoop.net.ScriptBasedMapping",
      "How SCM maps datanodes to racks: org.apache.hadoop.net.TableMapping (net.topology.table.file.name) or"
          + " org.apache.hadoop.net.ScriptBasedMapping (net.topology.script.file.name; none = /default-rack).");
  public static final ConfigKey<String> TOPOLOGY_TABLE_FILE = ConfigKey.of("net.topology.table.file.name",
      ConfigType.STRING, "", "Table mapping file: one 'host-or-ip /rack' pair per line; unlisted nodes go to"
          + " /default-rack.");
  public static final ConfigKey<String> TOPOLOGY_SCRIPT_FILE = ConfigKey.of("net.topology.script.file.name",
      ConfigType.STRING, "", "Script called with host names or IPs that prints one rack per argument.");
  public static final ConfigKey<Duration> REPLICATION_INTERVAL = positive(ConfigKey.of(
      "hdds.scm.replication.thread.interval", ConfigType.duration(ChronoUnit.MILLIS), "300s",
      "How often SCM's replication manager checks every container's replicas and sends copies and deletions."));
  public static final ConfigKey<Duration> REPLICATION_TIMEOUT = positive(ConfigKey.of(
      "hdds.scm.replication.event.timeout", ConfigType.duration(ChronoUnit.MILLIS), "10m",
      "How long SCM waits for a container copy or deletion it sent before it plans it again."));
  public static final ConfigKey<Duration> REPLICATION_DATANODE_OFFSET = positive(ConfigKey.of(
      "hdds.scm.replication.event.timeout.datanode.offset", ConfigType.duration(ChronoUnit.MILLIS), "30s",
      "A datanode drops a replication command this long before SCM stops waiting for it, so SCM never plans"
          + " again what a datanode is still doing."));
  public static final ConfigKey<Integer> REPLICATION_DATANODE_LIMIT = ConfigKey.of(
      "hdds.scm.replication.datanode.replication.limit", ConfigType.INT, "20",
      "Container copies a datanode may be receiving at once.").requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Double> REPLICATION_INFLIGHT_FACTOR = ConfigKey.of(
      "hdds.scm.replication.inflight.limit.factor", ConfigType.DOUBLE, "0.75",
      "Container copies under way in the cluster are at most this times the healthy datanodes times"
          + " hdds.scm.replication.datanode.replication.limit; 0 = no cluster-wide limit.")
      .requiring(v -> v >= 0 && v <= 1, "in 0..1");
  public static final ConfigKey<Integer> REPLICATION_MAINTENANCE_MINIMUM = ConfigKey.of(
      "hdds.scm.replication.maintenance.replica.minimum", ConfigType.INT, "2",
      "Healthy replicas a container keeps on in-service datanodes while others holding it are in maintenance.")
      .requiring(v -> v >= 1, ">= 1");

  private ScmKeys() {
  }

  static ConfigKey<Integer> port(String name, int defaultPort, String description) {
    return ConfigKey.of(name, ConfigType.INT, Integer.toString(defaultPort), description)
        .requiring(p -> p >= 0 && p <= 65535, "in 0..65535 (0 = any free port)");
  }

  static ConfigKey<Duration> positive(ConfigKey<Duration> key) {
    return key.requiring(d -> !d.isNegative() && !d.isZero(), "> 0");
  }
}
