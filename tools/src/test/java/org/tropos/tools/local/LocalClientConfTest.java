package org.tropos.tools.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalClientConfTest {
  private static final Map<String, String> SECURE = Map.of("ozone.security.enabled", "true",
      "tropos.security.ca.file", "/x/ca.crt");

  @TempDir
  Path dir;

  /** A command in the directory of a default local cluster reads its settings, unless told where to look. */
  @Test
  void aCommandReadsTheSettingsOfTheLocalClusterStartedWhereItRunsUnlessGivenAConfDirectory() throws Exception {
    assertEquals(Map.of(), LocalClientConf.forCommand(null, Map.of(), dir), "no local cluster here");
    LocalClientConf.write(dir.resolve(LocalClientConf.DEFAULT_DATA_DIR), SECURE);
    assertEquals(SECURE, LocalClientConf.forCommand(null, Map.of(), dir));
    assertEquals(SECURE, LocalClientConf.forCommand(null, Map.of("OZONE_CONF_DIR", " "), dir));
    assertEquals(Map.of(), LocalClientConf.forCommand(dir.resolve("conf"), Map.of(), dir), "--conf wins");
    assertEquals(Map.of(), LocalClientConf.forCommand(null, Map.of("OZONE_CONF_DIR", "/etc/tropos"), dir),
        "$OZONE_CONF_DIR wins");
  }
}
