package org.tropos.datanode.container;

import java.time.Duration;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DatanodeKeys;

/**
 * How the container scrubber runs (Ozone's hdds.container.scrub.* keys).
 *
 * @param enabled whether it runs at all
 * @param metadataInterval how often every replica's metadata is checked
 * @param dataInterval the pause between two passes over a volume's data
 * @param minGap the least time between two data checks of one replica
 * @param bytesPerSecond the most each volume's data check reads per second
 */
public record ScrubConfig(boolean enabled, Duration metadataInterval, Duration dataInterval, Duration minGap,
    long bytesPerSecond) {

  public static ScrubConfig from(Configuration conf) {
    return new ScrubConfig(conf.get(DatanodeKeys.SCRUB_ENABLED), conf.get(DatanodeKeys.SCRUB_METADATA_INTERVAL),
        conf.get(DatanodeKeys.SCRUB_DATA_INTERVAL), conf.get(DatanodeKeys.SCRUB_MIN_GAP),
        conf.get(DatanodeKeys.SCRUB_BYTES_PER_SECOND).bytes());
  }
}
