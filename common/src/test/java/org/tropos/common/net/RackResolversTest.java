package org.tropos.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;

class RackResolversTest {
  @TempDir
  Path dir;

  private Configuration table(String content) throws IOException {
    Path file = dir.resolve("racks.txt");
    Files.writeString(file, content);
    return Configuration.defaults().with(java.util.Map.of("net.topology.node.switch.mapping.impl",
        RackResolvers.TABLE_MAPPING, "net.topology.table.file.name", file.toString()));
  }

  @Test
  void tableMapsHostOrIpAndDefaultsTheRest() throws IOException {
    RackResolver r = RackResolvers.fromConfig(table("# racks\ndn1.example.com /rack1\n10.0.0.2  /rack2  # by ip\n\n"));
    assertEquals("/rack1", r.resolve("dn1.example.com", "10.0.0.1"));
    assertEquals("/rack2", r.resolve("dn2.example.com", "10.0.0.2"));
    assertEquals(RackResolver.DEFAULT_RACK, r.resolve("dn3.example.com", "10.0.0.3"));
  }

  @Test
  void malformedTableLineIsRefusedWithItsLineNumber() {
    ConfigException e = assertThrows(ConfigException.class, () -> RackResolvers.fromConfig(table("a /r1\nb rack2\n")));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
  }

  @Test
  void tableMappingWithoutFileIsRefused() {
    Configuration conf = Configuration.defaults().with("net.topology.node.switch.mapping.impl",
        RackResolvers.TABLE_MAPPING);
    ConfigException e = assertThrows(ConfigException.class, () -> RackResolvers.fromConfig(conf));
    assertTrue(e.getMessage().contains("net.topology.table.file.name"), e.getMessage());
  }

  @Test
  void defaultMappingWithoutScriptPutsEveryoneOnTheDefaultRack() {
    assertEquals(RackResolver.DEFAULT_RACK, RackResolvers.fromConfig(Configuration.defaults()).resolve("h", "1.2.3.4"));
  }

  @Test
  void scriptMappingTakesTheScriptsAnswerAndSurvivesItsFailure() throws IOException {
    Path script = dir.resolve("topology.sh");
    Files.writeString(script, "#!/bin/sh\ncase \"$1\" in 10.*) echo /dc1/rack7 ;; *) exit 3 ;; esac\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    RackResolver r = RackResolvers.fromConfig(Configuration.defaults().with("net.topology.script.file.name",
        script.toString()));
    assertEquals("/dc1/rack7", r.resolve("h", "10.1.1.1"));
    assertEquals(RackResolver.DEFAULT_RACK, r.resolve("h", "192.0.2.1"));
  }

  @Test
  void unknownMappingImplIsRefused() {
    Configuration conf = Configuration.defaults().with("net.topology.node.switch.mapping.impl", "com.acme.Racks");
    assertThrows(ConfigException.class, () -> RackResolvers.fromConfig(conf));
  }

  @Test
  void hostPortParsesWithDefaultPortAndNamesTheKey() {
    assertEquals(new HostPort("scm1", 9861), HostPort.parse("scm1", 9861, "k"));
    assertEquals(new HostPort("scm1", 19861), HostPort.parse("scm1:19861", 9861, "k"));
    ConfigException e = assertThrows(ConfigException.class, () -> HostPort.parse("scm1:x", 1, "ozone.scm.x"));
    assertTrue(e.getMessage().contains("ozone.scm.x"));
  }
}
