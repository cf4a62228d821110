package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Keys of the Ozone Manager, including the address its clients use. */
public final class OmKeys {
  public static final ConfigKey<String> ADDRESS = ConfigKey.of("ozone.om.address", ConfigType.STRING, "",
      "host[:port] of the OM's client service; empty = localhost with ozone.om.port. With OM HA, each OM's as"
          + " ozone.om.address.<serviceId>.<nodeId>.").withSuffixes();
  public static final ConfigKey<List<String>> SERVICE_IDS = ConfigKey.of("ozone.om.service.ids", ConfigType.LIST,
      "", "The OM HA service (one id; its OMs in ozone.om.nodes.<serviceId>); empty = a single OM.");
  public static final ConfigKey<List<String>> NODES = ConfigKey.of("ozone.om.nodes", ConfigType.LIST, "",
      "The node ids of an OM HA service, set as ozone.om.nodes.<serviceId> (three for a quorum that survives one"
          + " loss).").withSuffixes();
  public static final ConfigKey<String> NODE_ID = ConfigKey.of("ozone.om.node.id", ConfigType.STRING, "",
      "This OM's node id in its HA service; empty = the node whose ozone.om.address is an address of this host.");
  public static final ConfigKey<List<String>> RATIS_STORAGE_DIR = ConfigKey.of("ozone.om.ratis.storage.dir",
      ConfigType.LIST, "", "Where the OM keeps its Raft log (OM HA); empty = om-ratis beside the OM's database.");
  public static final ConfigKey<Integer> RATIS_PORT = ScmKeys.port("ozone.om.ratis.port", 9872,
      "Port of the OMs' Raft group (OM HA); per node as ozone.om.ratis.port.<serviceId>.<nodeId>.").withSuffixes();
  public static final ConfigKey<Long> RATIS_SNAPSHOT_THRESHOLD = ConfigKey.of(
      "ozone.om.ratis.snapshot.auto.trigger.threshold", ConfigType.LONG, "400000", "Raft log entries applied"
          + " between two snapshots of the OM's database (OM HA; a RocksDB checkpoint each).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Integer> RATIS_LOG_PURGE_GAP = ConfigKey.of("ozone.om.ratis.log.purge.gap",
      ConfigType.INT, "1000000", "Raft log entries a snapshot must cover beyond the last purge before the log"
          + " before it is purged (OM HA; a follower missing purged entries installs the snapshot).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<DataSize> RATIS_SEGMENT_SIZE = ConfigKey.of("ozone.om.ratis.segment.size",
      ConfigType.SIZE, "4MB", "Size of a Raft log segment of the OMs' group (OM HA); purges drop whole segments.");
  public static final ConfigKey<Boolean> FOLLOWER_READ_ENABLED = ConfigKey.of("ozone.om.follower.read.enabled",
      ConfigType.BOOLEAN, "false", "Whether the followers of an OM HA service answer read calls (from clients with"
          + " ozone.client.follower.read.enabled): each read first asks the leader for its commit index and waits"
          + " until this OM has applied it, so it sees every write acknowledged before it (linearizable).");
  public static final ConfigKey<Boolean> ACL_ENABLED = ConfigKey.of("ozone.acl.enabled", ConfigType.BOOLEAN, "true",
      "Whether the OM checks every request against owners and ACLs (native and S3), as Ozone's native authorizer"
          + " does. On by default (Ozone's default is off); false lets every caller do everything.");
  public static final ConfigKey<String> ACL_AUTHORIZER_CLASS = ConfigKey.of("ozone.acl.authorizer.class",
      ConfigType.STRING, "", "A class implementing org.tropos.om.acl.Authorizer that decides access in the OM instead"
          + " of the native authorizer (owners, native and S3 ACLs), as Ozone loads Ranger's: on the OM's class path,"
          + " with a public constructor taking the OM's Configuration, or none. Empty: the native authorizer. Bucket"
          + " policies are decided before it either way.");
  public static final ConfigKey<Integer> PORT = ScmKeys.port("ozone.om.port", 9862,
      "Port of the OM's client service.");
  public static final ConfigKey<String> BIND_HOST = ConfigKey.of("ozone.om.address.bind.host", ConfigType.STRING,
      "0.0.0.0", "Address the OM's client service binds to.");
  public static final ConfigKey<String> HTTP_ADDRESS = ConfigKey.of("ozone.om.http-address", ConfigType.STRING,
      "0.0.0.0:9874", "host:port of the OM's status port (/prom metrics, /health); port 0 = any free port.");
  public static final ConfigKey<String> HTTPS_ADDRESS = ConfigKey.of("ozone.om.https-address", ConfigType.STRING,
      "0.0.0.0:9875", "host:port of the OM's HTTPS status port (ozone.http.policy); port 0 = any free port.");
  public static final ConfigKey<List<String>> DB_DIRS = ConfigKey.of("ozone.om.db.dirs", ConfigType.LIST, "",
      "Directory of the OM's RocksDB; empty = the first ozone.metadata.dirs entry.");
  public static final ConfigKey<Integer> HANDLER_COUNT = ConfigKey.of("ozone.om.handler.count.key", ConfigType.INT,
      "32", "Threads that read and execute OM requests in parallel (only validation and commit are serial).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<Integer> MAX_CONFLICT_RETRIES = ConfigKey.of("ozone.om.occ.max.retries",
      ConfigType.INT, "20", "Times a request that conflicted with concurrent changes is re-run before it fails"
          + " with TOO_MANY_CONFLICTS.").requiring(v -> v >= 0, ">= 0");
  public static final ConfigKey<Integer> COMMIT_BATCH_MAX = ConfigKey.of("ozone.om.occ.commit.batch.max",
      ConfigType.INT, "1024", "Most transactions validated and written in one RocksDB batch (one WAL sync).")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<String> KEY_PROVIDER_PATH = ConfigKey.of("hadoop.security.key.provider.path",
      ConfigType.STRING, "", "The KMS that SSE-KMS keys' data keys are made and decrypted by, as Hadoop names it:"
          + " kms://http@host:9600/kms or kms://https@host:9600/kms (Hadoop KMS's REST protocol, the OM calling as"
          + " its own user with the KMS's simple authentication). Empty: SSE-KMS is refused (NotImplemented).");

  public static final ConfigKey<String> DEFAULT_BUCKET_LAYOUT = ConfigKey.of("ozone.default.bucket.layout",
      ConfigType.STRING, "FILE_SYSTEM_OPTIMIZED", "Layout of buckets created without one: FILE_SYSTEM_OPTIMIZED or"
          + " OBJECT_STORE.").requiring(v -> v.equals("FILE_SYSTEM_OPTIMIZED") || v.equals("OBJECT_STORE"),
              "FILE_SYSTEM_OPTIMIZED or OBJECT_STORE");
  public static final ConfigKey<Integer> DEFAULT_REPLICATION = ConfigKey.of("ozone.replication", ConfigType.INT, "3",
      "Replicas of the keys of buckets created without a replication: 1 or 3.")
      .requiring(v -> v == 1 || v == 3, "1 or 3");
  public static final ConfigKey<String> SERVER_DEFAULT_REPLICATION_TYPE = ConfigKey.of(
      "ozone.server.default.replication.type", ConfigType.STRING, "RATIS", "How the keys of buckets created without"
          + " a replication are stored: RATIS (replicated, ozone.server.default.replication replicas) or EC"
          + " (erasure-coded, ozone.server.default.replication naming the config).")
      .requiring(v -> v.equals("RATIS") || v.equals("EC"), "RATIS or EC");
  public static final ConfigKey<String> SERVER_DEFAULT_REPLICATION = ConfigKey.of("ozone.server.default.replication",
      ConfigType.STRING, "", "The replication of buckets created without one: for RATIS 1 or 3 (empty:"
          + " ozone.replication), for EC a config such as rs-6-3-1024k, rs-3-2-1024k or xor-2-1-1024k"
          + " (codec-data-parity-cellsize).");
  public static final ConfigKey<Duration> DIRECTORY_PURGE_INTERVAL = ScmKeys.positive(ConfigKey.of(
      "ozone.directory.deleting.service.interval", ConfigType.duration(ChronoUnit.MILLIS), "60s",
      "How often the OM purges the contents of deleted directories."));

  public static final ConfigKey<Duration> CONTAINER_LOCATION_TTL = ConfigKey.of(
      "ozone.om.container.location.cache.ttl", ConfigType.duration(ChronoUnit.MINUTES), "10s",
      "How long the locations of a container, as SCM gave them, answer key lookups before SCM is asked again;"
          + " 0 = ask SCM on every lookup. A reader whose listed replicas all fail asks SCM itself.")
      .requiring(v -> !v.isNegative(), ">= 0");
  public static final ConfigKey<Integer> CONTAINER_LOCATION_CACHE_SIZE = ConfigKey.of(
      "ozone.om.container.location.cache.size", ConfigType.INT, "100000",
      "Most container locations the OM keeps for key lookups.").requiring(v -> v >= 1, ">= 1");

  private OmKeys() {
  }
}
