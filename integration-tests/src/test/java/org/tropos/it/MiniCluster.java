package org.tropos.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.tools.local.LocalCluster;

/**
 * SCM and datanodes in this JVM on loopback with free ports, temporary directories and short intervals
 * (heartbeat 100 ms, stale 1 s, dead 2 s), queried through SCM's real admin service.
 */
final class MiniCluster implements AutoCloseable {
  static final Duration STALE = Duration.ofSeconds(1);
  static final Duration DEAD = Duration.ofSeconds(2);
  static final Duration WAIT = Duration.ofSeconds(20);

  private final Path dir;
  private final LocalCluster cluster;
  private ScmAdminClient admin;

  MiniCluster(Path dir, int datanodes) throws IOException {
    this(dir, datanodes, 1, Map.of());
  }

  /** @param settings test-specific configuration over {@link #testConfig()} */
  MiniCluster(Path dir, int datanodes, int raftDirs, Map<String, String> settings) throws IOException {
    this.dir = dir;
    cluster = new LocalCluster(dir, datanodes, 1, raftDirs, testConfig().with(settings));
    cluster.start();
    admin = newAdmin();
  }

  /** A client of SCM's admin service, as a user of this cluster reaches it. */
  ScmAdminClient newAdmin() throws IOException {
    return new ScmAdminClient(List.of(scmClientAddress()), SecuritySettings.userTransport(clientConfig()));
  }

  static Configuration testConfig() {
    return Configuration.defaults().with(Map.ofEntries(
        Map.entry("ozone.scm.client.port", "0"),
        Map.entry("ozone.scm.datanode.port", "0"),
        Map.entry("ozone.scm.block.client.port", "0"),
        Map.entry("ozone.om.port", "0"),
        Map.entry("ozone.om.http-address", "127.0.0.1:0"),
        Map.entry("ozone.om.https-address", "127.0.0.1:0"),
        Map.entry("ozone.scm.http-address", "127.0.0.1:0"),
        Map.entry("ozone.scm.https-address", "127.0.0.1:0"),
        Map.entry("ozone.s3g.http-address", "127.0.0.1:0"),
        Map.entry("ozone.s3g.webadmin.http-address", "127.0.0.1:0"),
        Map.entry("ozone.s3g.webadmin.https-address", "127.0.0.1:0"),
        Map.entry("ozone.s3g.https-address", "127.0.0.1:0"),
        Map.entry("hdds.datanode.http-address", "127.0.0.1:0"),
        Map.entry("hdds.datanode.https-address", "127.0.0.1:0"),
        Map.entry("ozone.directory.deleting.service.interval", "200ms"),
        Map.entry("hdds.container.ratis.ipc.port", "0"),
        Map.entry("hdds.container.ipc.port", "0"),
        Map.entry("ozone.scm.pipeline.creation.interval", "500ms"),
        // The cluster tests count, place and close RATIS/THREE pipelines; SingleReplicaIT turns RATIS/ONE on.
        Map.entry("ozone.scm.pipeline.creation.auto.factor.one", "false"),
        Map.entry("hdds.heartbeat.interval", "100ms"),
        // Every datanode's volume is on the machine's one disk: a small reserve, so a CI machine's free space is
        // enough (FullVolumeIT sets its own).
        Map.entry("hdds.datanode.volume.min.free.space", "100MB"),
        Map.entry("ozone.scm.stale.node.interval", Long.toString(STALE.toMillis()) + "ms"),
        Map.entry("ozone.scm.dead.node.interval", Long.toString(DEAD.toMillis()) + "ms"),
        Map.entry("ozone.scm.heartbeat.thread.interval", "100ms"),
        Map.entry("hdds.datanode.periodic.disk.check.interval.minutes", "200ms")));
  }

  LocalCluster cluster() {
    return cluster;
  }

  HostPort scmBlockAddress() {
    return new HostPort("127.0.0.1", cluster.scm().blockPort());
  }

  HostPort scmClientAddress() {
    return new HostPort("127.0.0.1", cluster.scm().clientPort());
  }

  HostPort omAddress() {
    return new HostPort("127.0.0.1", cluster.om().port());
  }

  /**
   * The file of {@code block} on {@code datanode}, once that replica has applied the block's commit: a writer
   * learns that every replica has committed it (ALL_COMMITTED); a follower applies it a moment later.
   */
  static Path blockFile(org.tropos.datanode.DatanodeServer datanode, org.tropos.proto.hdds.BlockId block,
      long length) throws Exception {
    Await.until("block " + block.getContainerId() + "/" + block.getLocalId() + " applied on " + datanode.id(), WAIT,
        () -> {
          try {
            return datanode.store().planRead(block, 0, length).file();
          } catch (org.tropos.common.rpc.DatanodeException e) {
            return null;
          }
        }, java.util.Objects::nonNull);
    return datanode.store().planRead(block, 0, length).file();
  }

  /** What a client of this cluster needs: the OM's and SCM's addresses, over the test settings. */
  Configuration clientConfig() {
    return testConfig().with(Map.of("ozone.om.address", omAddress().toString(),
        "ozone.scm.block.client.address", scmBlockAddress().toString(),
        "ozone.scm.client.address", scmClientAddress().toString())).with(cluster.securityKeys());
  }

  /**
   * What a client of this secure cluster needs to call as {@code user}: a certificate naming it, issued as an
   * administrator issues one ({@code tropos admin cert issue}) into {@code certs} on first use.
   */
  Configuration userConfig(String user, Path certs) throws IOException {
    Path pem = certs.resolve(user + ".pem");
    if (!Files.exists(pem)) {
      TroposCli.run(0, "admin", "cert", "issue", "--user", user, "--out", pem.toString(), "--security-dir",
          dir.resolve("scm/scm-security").toString(), "--conf", clientConfDir(certs.resolve(user + "-conf"))
              .toString());
    }
    return clientConfig().with("tropos.security.identity.file", pem.toString());
  }

  /** Writes an ozone-site.xml that points a client at this cluster's SCM and OM, and returns its directory. */
  Path clientConfDir(Path dir) throws IOException {
    Files.createDirectories(dir);
    StringBuilder xml = new StringBuilder("<configuration>");
    Map<String, String> keys = new java.util.TreeMap<>(cluster.securityKeys());
    keys.put("ozone.scm.client.address", scmClientAddress().toString());
    keys.put("ozone.scm.block.client.address", scmBlockAddress().toString());
    keys.put("ozone.om.address", omAddress().toString());
    keys.forEach((key, value) -> xml.append("<property><name>").append(key).append("</name><value>").append(value)
        .append("</value></property>"));
    Files.writeString(dir.resolve("ozone-site.xml"), xml.append("</configuration>\n"));
    return dir;
  }

  /** Waits until at least {@code count} RATIS/THREE pipelines are OPEN with a leader. */
  void awaitOpenPipelines(int count) throws Exception {
    Await.until(count + " OPEN RATIS/THREE pipelines", WAIT, () -> admin.listPipelines(PipelineState.OPEN).stream()
        .filter(p -> p.getFactor() == ReplicationFactor.THREE).toList(),
        ps -> ps.size() >= count && ps.stream().allMatch(p -> p.hasLeader()));
  }

  List<DatanodeStatus> datanodes() throws ScmException {
    return admin.listDatanodes(NodeState.NODE_STATE_UNSPECIFIED);
  }

  /** Node id → state, as SCM reports it. */
  Map<UUID, NodeState> states() throws ScmException {
    return datanodes().stream().collect(Collectors.toMap(d -> Uuids.fromProto(d.getDetails().getUuid()),
        DatanodeStatus::getState));
  }

  /** Waits until every datanode is HEALTHY and serving (heard from since it registered). */
  void awaitAllHealthy() throws Exception {
    Await.until(cluster.datanodeCount() + " HEALTHY datanodes", WAIT, this::datanodes,
        s -> s.size() == cluster.datanodeCount() && s.stream().allMatch(d -> d.getState() == NodeState.HEALTHY
            && d.getServing()));
  }

  void awaitState(UUID node, NodeState state) throws Exception {
    Await.until("datanode " + node + " " + state, WAIT, this::states, s -> s.get(node) == state);
  }

  /** Restarts SCM; the admin client follows it to the same port. */
  void restartScm() throws IOException {
    restartScm(Map.of());
  }

  /** Restarts SCM with {@code settings} changed; the admin client follows it to the same port. */
  void restartScm(Map<String, String> settings) throws IOException {
    admin.close();
    cluster.restartScm(settings);
    admin = newAdmin();
  }

  @Override
  public void close() {
    admin.close();
    cluster.close();
    if (!ManagedRocksDb.openDatabases().isEmpty()) {
      throw new AssertionError("RocksDB left open", ManagedRocksDb.openDatabases().get(0));
    }
  }
}
