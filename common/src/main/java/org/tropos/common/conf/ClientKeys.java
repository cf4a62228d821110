package org.tropos.common.conf;

/** Keys of Tropos clients. */
public final class ClientKeys {
  public static final ConfigKey<DataSize> BYTES_PER_CHECKSUM = ConfigKey.of("ozone.client.bytes.per.checksum",
      ConfigType.SIZE, "16KB", "Bytes covered by each CRC32C checksum a client computes when writing.")
      .requiring(s -> s.bytes() >= 512 && s.bytes() <= (4 << 20), "between 512B and 4MB");

  public static final ConfigKey<Boolean> FOLLOWER_READ_ENABLED = ConfigKey.of("ozone.client.follower.read.enabled",
      ConfigType.BOOLEAN, "false", "Whether a client of an OM HA service sends read calls to the OMs in turn"
          + " rather than to the leader (the OMs need ozone.om.follower.read.enabled; one that does not serve reads"
          + " sends the call on to the leader).");

  private ClientKeys() {
  }
}
