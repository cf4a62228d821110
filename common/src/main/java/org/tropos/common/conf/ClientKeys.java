package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Keys of Tropos clients. */
public final class ClientKeys {
  public static final ConfigKey<DataSize> BYTES_PER_CHECKSUM = ConfigKey.of("ozone.client.bytes.per.checksum",
      ConfigType.SIZE, "16KB", "Bytes covered by each CRC32C checksum a client computes when writing.")
      .requiring(s -> s.bytes() >= 512 && s.bytes() <= (4 << 20), "between 512B and 4MB");

  public static final ConfigKey<Boolean> FOLLOWER_READ_ENABLED = ConfigKey.of("ozone.client.follower.read.enabled",
      ConfigType.BOOLEAN, "false", "Whether a client of an OM HA service sends read calls to the OMs in turn"
          + " rather than to the leader (the OMs need ozone.om.follower.read.enabled; one that does not serve reads"
          + " sends the call on to the leader).");

  public static final ConfigKey<Duration> RATIS_WRITE_TIMEOUT = ScmKeys.positive(ConfigKey.of(
      "hdds.ratis.client.request.write.timeout", ConfigType.duration(ChronoUnit.MILLIS), "5m",
      "How long a write to a pipeline is retried before it fails (the writer then moves its data to another"
          + " pipeline): a pipeline that cannot commit, as when replicas cannot write, fails its writers in time."));
  public static final ConfigKey<Duration> RATIS_WATCH_TIMEOUT = ScmKeys.positive(ConfigKey.of(
      "hdds.ratis.client.request.watch.timeout", ConfigType.duration(ChronoUnit.MILLIS), "3m",
      "How long a writer waits for a majority of a pipeline's replicas to commit a block before it fails."));

  public static final ConfigKey<DataSize> WRITE_BUFFER_BUDGET = ConfigKey.of("ozone.client.write.buffer.budget",
      ConfigType.SIZE, "0", "The bytes the writers of one client process (an S3 gateway, a Spark executor) may hold"
          + " together: each keeps the chunks it sent until every replica has committed them. A writer that finds"
          + " it spent commits what it holds and waits. 0 (the default) takes a quarter of the JVM's heap.");

  private ClientKeys() {
  }
}
