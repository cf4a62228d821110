package org.tropos.common.conf;

/**
 * A configuration that cannot be used: a value that does not parse or is out of range, or keys whose
 * values contradict each other. The message always names the key (or keys) and the offending value,
 * because it is what an operator sees when a daemon refuses to start.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }

  public static ConfigException invalidValue(String key, String value, String expected) {
    return new ConfigException("Invalid value '" + value + "' for " + key + ": expected " + expected);
  }
}
