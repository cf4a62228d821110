package org.tropos.common.conf;

/** Keys of Tropos clients. */
public final class ClientKeys {
  public static final ConfigKey<DataSize> BYTES_PER_CHECKSUM = ConfigKey.of("ozone.client.bytes.per.checksum",
      ConfigType.SIZE, "16KB", "Bytes covered by each CRC32C checksum a client computes when writing.")
      .requiring(s -> s.bytes() >= 512 && s.bytes() <= (4 << 20), "between 512B and 4MB");

  private ClientKeys() {
  }
}
