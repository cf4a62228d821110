package org.tropos.common.security;

import java.time.Duration;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;

/**
 * How long block tokens and the secret keys that sign them last ({@code hdds.block.token.*},
 * {@code hdds.secret.key.*}).
 *
 * @param tokenLifetime how long a token is valid after the OM signs it
 * @param rotateEvery how often SCM makes a new key
 * @param keyLifetime how long a key verifies tokens after it is made
 * @param checkEvery how often SCM checks for a due key, and the OMs and datanodes fetch the keys again
 */
public record BlockTokenSettings(Duration tokenLifetime, Duration rotateEvery, Duration keyLifetime,
    Duration checkEvery) {

  public BlockTokenSettings {
    if (keyLifetime.compareTo(rotateEvery.plus(tokenLifetime)) < 0) {
      // A key signs tokens until the next one is made, and each of them must verify until it expires.
      throw new IllegalArgumentException(SecurityKeys.SECRET_KEY_EXPIRY.name() + " " + keyLifetime + " is shorter"
          + " than " + SecurityKeys.SECRET_KEY_ROTATE.name() + " " + rotateEvery + " plus "
          + SecurityKeys.BLOCK_TOKEN_EXPIRY.name() + " " + tokenLifetime);
    }
  }

  public static BlockTokenSettings from(Configuration conf) {
    try {
      return new BlockTokenSettings(conf.get(SecurityKeys.BLOCK_TOKEN_EXPIRY), conf.get(SecurityKeys.SECRET_KEY_ROTATE),
          conf.get(SecurityKeys.SECRET_KEY_EXPIRY), conf.get(SecurityKeys.SECRET_KEY_ROTATE_CHECK));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }
}
