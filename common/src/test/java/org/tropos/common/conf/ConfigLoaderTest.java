package org.tropos.common.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir
  Path confDir;
  private final List<String> warnings = new ArrayList<>();

  private Configuration load(String... nameValuePairs) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      xml.append("<property><name>").append(nameValuePairs[i]).append("</name><value>").append(nameValuePairs[i + 1])
          .append("</value></property>\n");
    }
    Files.writeString(confDir.resolve("ozone-site.xml"), xml.append("</configuration>\n"));
    return new ConfigLoader(warnings::add).load(confDir);
  }

  @Test
  void missingSiteFileMeansDefaults() {
    Configuration conf = new ConfigLoader(warnings::add).load(confDir);
    assertEquals(Duration.ofSeconds(30), conf.get(DatanodeKeys.HEARTBEAT_INTERVAL));
    assertEquals(Duration.ofMinutes(5), conf.get(ScmKeys.STALE_NODE_INTERVAL));
    assertEquals(9861, conf.get(ScmKeys.DATANODE_PORT));
    assertTrue(warnings.isEmpty());
  }

  @Test
  void siteValuesOverrideDefaultsAndTakeUnits() throws IOException {
    Configuration conf = load("hdds.heartbeat.interval", "500ms", "ozone.scm.dead.node.interval", "2h",
        "hdds.datanode.dir", " /d1 , /d2,, ");
    assertEquals(Duration.ofMillis(500), conf.get(DatanodeKeys.HEARTBEAT_INTERVAL));
    assertEquals(Duration.ofHours(2), conf.get(ScmKeys.DEAD_NODE_INTERVAL));
    assertEquals(List.of("/d1", "/d2"), conf.get(DatanodeKeys.DATA_DIRS));
  }

  @Test
  void bareNumberTakesTheKeysDefaultUnit() throws IOException {
    Configuration conf = load("hdds.heartbeat.interval", "1500", "hdds.datanode.periodic.disk.check.interval.minutes",
        "15");
    assertEquals(Duration.ofMillis(1500), conf.get(DatanodeKeys.HEARTBEAT_INTERVAL));
    assertEquals(Duration.ofMinutes(15), conf.get(DatanodeKeys.DISK_CHECK_INTERVAL));
  }

  @Test
  void invalidValueNamesTheKeyAndTheValue() {
    ConfigException e = assertThrows(ConfigException.class, () -> load("hdds.heartbeat.interval", "abc"));
    assertTrue(e.getMessage().contains("hdds.heartbeat.interval"), e.getMessage());
    assertTrue(e.getMessage().contains("'abc'"), e.getMessage());
  }

  @Test
  void outOfRangeValueIsRefused() {
    ConfigException e = assertThrows(ConfigException.class, () -> load("ozone.scm.datanode.port", "70000"));
    assertTrue(e.getMessage().contains("ozone.scm.datanode.port"), e.getMessage());
    assertThrows(ConfigException.class, () -> load("hdds.heartbeat.interval", "0s"));
    assertThrows(ConfigException.class, () -> load("ozone.scm.datanode.pipeline.limit", "-1"));
  }

  @Test
  void deprecatedAliasMapsToCurrentNameWithOneWarning() throws IOException {
    Configuration conf = load("ozone.datanode.pipeline.limit", "5", "dfs.container.ratis.datanode.storage.dir",
        "/r1,/r2");
    assertEquals(5, conf.get(ScmKeys.DATANODE_PIPELINE_LIMIT));
    assertEquals(List.of("/r1", "/r2"), conf.get(DatanodeKeys.RAFT_LOG_DIRS));
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("ozone.datanode.pipeline.limit is deprecated; use "
        + "ozone.scm.datanode.pipeline.limit"), warnings.get(0));
  }

  @Test
  void currentNameWinsOverItsAlias() throws IOException {
    Configuration conf = load("ozone.datanode.pipeline.limit", "5", "ozone.scm.datanode.pipeline.limit", "3");
    assertEquals(3, conf.get(ScmKeys.DATANODE_PIPELINE_LIMIT));
    assertTrue(warnings.get(0).contains("also set and wins"), warnings.toString());
  }

  @Test
  void invalidValueUnderAnAliasNamesTheCurrentKey() {
    ConfigException e = assertThrows(ConfigException.class, () -> load("ozone.datanode.pipeline.limit", "many"));
    assertTrue(e.getMessage().contains("ozone.scm.datanode.pipeline.limit"), e.getMessage());
  }

  @Test
  void unknownOzoneAndHddsKeysAreWarnedAboutOthersAreNot() throws IOException {
    Configuration conf = load("ozone.scm.stale.node.intreval", "1m", "hdds.no.such.key", "x", "fs.defaultFS",
        "tropos://om");
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("ozone.scm.stale.node.intreval"));
    assertEquals("tropos://om", conf.raw("fs.defaultFS"));
  }

  @Test
  void ratisKeysUnderHddsRatisArePassedThroughToTheDatanodesRatisWithoutAWarning() throws IOException {
    Configuration conf = load("hdds.ratis.raft.server.log.appender.wait-time.min", "5ms",
        "hdds.ratis.raft.grpc.flow.control.window", "2MB", "hdds.ratis.snapshot.threshold", "500");
    assertEquals(Map.of("raft.server.log.appender.wait-time.min", "5ms", "raft.grpc.flow.control.window", "2MB"),
        RatisPassThrough.of(conf, RatisPassThrough.DATANODE), "Tropos's own hdds.ratis keys are not Ratis's");
    assertEquals(List.of(), warnings);
  }

  @Test
  void ratisKeysUnderTheOmAndScmPrefixesGoToTheirOwnRaftServersWithoutAWarning() throws IOException {
    Configuration conf = load("ozone.om.ratis.raft.server.rpc.timeout.min", "3s",
        "ozone.scm.ratis.raft.server.rpc.timeout.min", "4s", "ozone.om.ratis.segment.size", "8MB",
        "ozone.scm.ratis.raft.server.log.segment.size.max", "8MB");
    assertEquals(Map.of("raft.server.rpc.timeout.min", "3s"), RatisPassThrough.of(conf, RatisPassThrough.OM),
        "Tropos's own ozone.om.ratis keys are not Ratis's");
    assertEquals(Map.of("raft.server.rpc.timeout.min", "4s", "raft.server.log.segment.size.max", "8MB"),
        RatisPassThrough.of(conf, RatisPassThrough.SCM));
    assertEquals(Map.of(), RatisPassThrough.of(conf, RatisPassThrough.DATANODE));
    assertEquals(List.of(), warnings, "pass-through keys are not unknown keys");
    load("ozone.om.ratis.rafts.server.rpc.timeout.min", "3s");
    assertEquals(1, warnings.size(), "a misspelt prefix is still an unknown key: " + warnings);
  }

  @Test
  void keysSetPerServiceOrNodeAreKnownAndCheckedLikeTheirBaseKey() throws IOException {
    Configuration conf = load("ozone.om.service.ids", "omservice", "ozone.om.nodes.omservice", "om1,om2",
        "ozone.om.address.omservice.om1", "h1", "ozone.om.ratis.port.omservice.om1", "9000");
    assertEquals(List.of(), warnings, "ozone.om.address.<service>.<node> and friends are not unknown keys");
    assertEquals(9000, conf.get(OmKeys.RATIS_PORT, "omservice.om1"));
    assertEquals(9872, conf.get(OmKeys.RATIS_PORT, "omservice.om2"), "a node without its own: the plain key");
    ConfigException bad = assertThrows(ConfigException.class, () -> load("ozone.om.ratis.port.omservice.om1",
        "70000"));
    assertTrue(bad.getMessage().contains("ozone.om.ratis.port.omservice.om1"), bad.getMessage());
  }

  @Test
  void variablesExpandFromOtherKeysAndDefaults() throws IOException {
    Configuration conf = load("ozone.metadata.dirs", "/var/tropos", "hdds.datanode.dir",
        "${ozone.metadata.dirs}/data", "ozone.scm.datanode.address", "scm1:${ozone.scm.datanode.port}");
    assertEquals(List.of("/var/tropos/data"), conf.get(DatanodeKeys.DATA_DIRS));
    assertEquals("scm1:9861", conf.get(ScmKeys.DATANODE_ADDRESS));
    assertThrows(ConfigException.class, () -> load("hdds.datanode.dir", "${nowhere}/x"));
  }

  @Test
  void malformedSiteFileNamesTheFile() throws IOException {
    Files.writeString(confDir.resolve("ozone-site.xml"), "<configuration><property>");
    ConfigException e = assertThrows(ConfigException.class, () -> new ConfigLoader(warnings::add).load(confDir));
    assertTrue(e.getMessage().contains("ozone-site.xml"), e.getMessage());
  }

  @Test
  void commandLineOverridesWinAndGoThroughAliasesAndValidation() throws IOException {
    load("hdds.heartbeat.interval", "10s");
    Configuration conf = new ConfigLoader(warnings::add).load(confDir, Map.of("hdds.heartbeat.interval", "2s",
        "ozone.datanode.pipeline.limit", "7"));
    assertEquals(Duration.ofSeconds(2), conf.get(DatanodeKeys.HEARTBEAT_INTERVAL));
    assertEquals(7, conf.get(ScmKeys.DATANODE_PIPELINE_LIMIT));
    assertTrue(warnings.stream().anyMatch(w -> w.contains("deprecated")), warnings.toString());
    assertThrows(ConfigException.class,
        () -> new ConfigLoader(warnings::add).load(confDir, Map.of("hdds.heartbeat.interval", "x")));
  }

  @Test
  void confDirComesFromFlagThenEnvironmentThenConf() {
    assertEquals(Path.of("/x"), ConfigLoader.resolveConfDir(Path.of("/x"), Map.of("OZONE_CONF_DIR", "/y")));
    assertEquals(Path.of("/y"), ConfigLoader.resolveConfDir(null, Map.of("OZONE_CONF_DIR", "/y")));
    assertEquals(Path.of("conf"), ConfigLoader.resolveConfDir(null, Map.of()));
  }

  @Test
  void overlaysAreValidatedToo() {
    Configuration conf = Configuration.defaults().with(DatanodeKeys.HEARTBEAT_INTERVAL, Duration.ofSeconds(3));
    assertEquals(Duration.ofSeconds(3), conf.get(DatanodeKeys.HEARTBEAT_INTERVAL));
    assertTrue(conf.isSet(DatanodeKeys.HEARTBEAT_INTERVAL));
    assertFalse(conf.isSet(ScmKeys.STALE_NODE_INTERVAL));
    assertThrows(ConfigException.class, () -> conf.with("hdds.heartbeat.interval", "soon"));
  }

  @Test
  void generatedDefaultsListEveryKeyWithItsDefaultAndAliases() {
    String xml = DefaultsXmlWriter.render();
    for (ConfigKey<?> key : KnownKeys.all()) {
      assertTrue(xml.contains("<name>" + key.name() + "</name>"), key.name());
      assertFalse(key.description().isBlank(), key.name());
    }
    assertTrue(xml.contains("Deprecated name: ozone.datanode.pipeline.limit"));
    for (String prefix : List.of("hdds.ratis.raft.", "ozone.om.ratis.raft.", "ozone.scm.ratis.raft.")) {
      assertTrue(xml.contains(prefix + "<ratis key>"), "the reference names the pass-through prefix " + prefix);
    }
  }
}
