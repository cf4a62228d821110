package org.tropos.common.conf;

import java.util.List;

/** Keys every Tropos process may read. */
public final class CommonKeys {
  public static final ConfigKey<List<String>> METADATA_DIRS = ConfigKey.of("ozone.metadata.dirs", ConfigType.LIST, "",
      "Directories for a daemon's metadata (SCM and OM databases, datanode id, RaftLogs) unless a specific key"
          + " says otherwise.");

  public static final ConfigKey<String> HTTP_POLICY = ConfigKey.of("ozone.http.policy", ConfigType.STRING, "",
      "Which listeners the daemons' status ports open: HTTP_ONLY, HTTPS_ONLY or HTTP_AND_HTTPS (HTTPS needs"
          + " ozone.security.enabled; SCM's web console is served over HTTPS alone in a secure cluster). Empty ="
          + " HTTP_AND_HTTPS in a secure cluster, HTTP_ONLY otherwise.")
      .requiring(p -> p.isBlank() || List.of("HTTP_ONLY", "HTTPS_ONLY", "HTTP_AND_HTTPS").contains(p.strip()
          .toUpperCase(java.util.Locale.ROOT)), "HTTP_ONLY, HTTPS_ONLY or HTTP_AND_HTTPS");
  public static final ConfigKey<List<String>> ADMINISTRATORS = ConfigKey.of("ozone.administrators", ConfigType.LIST,
      "", "Users who administer the cluster (act on every bucket, on other users' S3 secrets; in a secure cluster"
          + " decommission datanodes and open or close pipelines), besides the user running the OM or SCM, who always"
          + " does; * = everyone. Read by the OM and SCM: a client's own setting grants nothing.");

  private CommonKeys() {
  }
}
