package org.tropos.client.hadoop;

import java.net.URI;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.tropos.common.conf.Configuration;

/**
 * The Tropos configuration of a {@code tropos://} URI: Tropos's own keys as Hadoop's configuration carries them
 * to a job, and the OM the URI names. Shared by the file system and its token renewer, which must reach the same
 * OMs.
 */
final class FsConfiguration {
  private FsConfiguration() {
  }

  /**
   * Tropos's own keys (ozone.*, hdds.*, tropos.*: the CA and certificate of a secure cluster) from the Hadoop
   * configuration; the URI's authority names the OM ({@code host:port}) or, like Ozone's {@code ofs://}, an OM HA
   * service of {@code ozone.om.service.ids}, whose OMs the client then follows.
   */
  static Configuration of(URI name, org.apache.hadoop.conf.Configuration conf) {
    Map<String, String> keys = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith("ozone.") || e.getKey().startsWith("hdds.") || e.getKey().startsWith("tropos.")) {
        keys.put(e.getKey(), e.getValue());
      }
    }
    String authority = name.getAuthority();
    if (authority != null && !authority.isEmpty()) {
      String services = keys.getOrDefault("ozone.om.service.ids", "");
      if (Arrays.stream(services.split(",")).map(String::strip).anyMatch(authority::equals)) {
        keys.put("ozone.om.service.ids", authority);
      } else {
        keys.put("ozone.om.address", authority);
        keys.remove("ozone.om.service.ids");
      }
    }
    return Configuration.defaults().with(keys);
  }
}
