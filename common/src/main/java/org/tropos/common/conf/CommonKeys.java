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

  public static final ConfigKey<List<String>> ADMINISTRATOR_GROUPS = ConfigKey.of("ozone.administrators.groups",
      ConfigType.LIST, "", "Groups whose users administer the cluster as ozone.administrators' do (groups as"
          + " hadoop.security.group.mapping finds them on the OM).");
  public static final ConfigKey<List<String>> READONLY_ADMINISTRATORS = ConfigKey.of(
      "ozone.readonly.administrators", ConfigType.LIST, "", "Users who may read what administrators read (SCM's"
          + " datanodes, pipelines and containers; in the OM every volume, bucket and key) and change nothing.");
  public static final ConfigKey<List<String>> READONLY_ADMINISTRATOR_GROUPS = ConfigKey.of(
      "ozone.readonly.administrators.groups", ConfigType.LIST, "", "Groups whose users are read-only"
          + " administrators (ozone.readonly.administrators).");
  public static final ConfigKey<String> GROUP_MAPPING = ConfigKey.of("hadoop.security.group.mapping",
      ConfigType.STRING, "org.apache.hadoop.security.JniBasedUnixGroupsMappingWithFallback", "Where a user's groups"
          + " come from: Hadoop's ShellBasedUnixGroupsMapping or JniBasedUnixGroupsMapping[WithFallback] (the"
          + " operating system's groups of the user, as `id -Gn` shows them) or NullGroupsMapping (none); the"
          + " static overrides apply first either way.").requiring(v -> GroupSource.of(v) != null,
              "a class name ending in ShellBasedUnixGroupsMapping, JniBasedUnixGroupsMapping,"
                  + " JniBasedUnixGroupsMappingWithFallback or NullGroupsMapping");
  public static final ConfigKey<String> GROUP_STATIC_OVERRIDES = ConfigKey.of(
      "hadoop.user.group.static.mapping.overrides", ConfigType.STRING, "dr.who=;", "Users' groups fixed here"
          + " instead of looked up: user1=group1,group2;user2=;user3=group2.");
  public static final ConfigKey<Integer> GROUPS_CACHE_SECONDS = ConfigKey.of("hadoop.security.groups.cache.secs",
      ConfigType.INT, "300", "How long a user's groups, once looked up, are used before being looked up again.")
      .requiring(v -> v >= 0, ">= 0");

  /** Where {@link #GROUP_MAPPING} finds users' groups. */
  public enum GroupSource {
    OPERATING_SYSTEM, NONE;

    /** The source a {@link #GROUP_MAPPING} value names, or null for one Tropos does not provide. */
    public static GroupSource of(String mapping) {
      String name = mapping.strip();
      for (String os : List.of("ShellBasedUnixGroupsMapping", "JniBasedUnixGroupsMapping",
          "JniBasedUnixGroupsMappingWithFallback")) {
        if (name.equals(os) || name.endsWith("." + os)) {
          return OPERATING_SYSTEM;
        }
      }
      return name.equals("NullGroupsMapping") || name.endsWith(".NullGroupsMapping") ? NONE : null;
    }
  }

  private CommonKeys() {
  }
}
