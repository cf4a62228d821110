package org.tropos.common.conf;

import java.util.List;

/** Keys every Tropos process may read. */
public final class CommonKeys {
  public static final ConfigKey<List<String>> METADATA_DIRS = ConfigKey.of("ozone.metadata.dirs", ConfigType.LIST, "",
      "Directories for a daemon's metadata (SCM and OM databases, datanode id, RaftLogs) unless a specific key"
          + " says otherwise.");

  private CommonKeys() {
  }
}
