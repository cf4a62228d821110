package org.tropos.scm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DataSize;
import org.tropos.common.conf.DatanodeKeys;
import org.tropos.common.conf.RatisPassThrough;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.http.StatusPorts;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.LocalHosts;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.net.ScmService;
import org.tropos.common.ratis.RaftSnapshotPolicy;
import org.tropos.common.security.Administration;
import org.tropos.common.security.KerberosService;
import org.tropos.common.security.SecuritySettings;
import org.tropos.scm.block.BlockDeletionConfig;
import org.tropos.scm.pipeline.PipelineLimits;
import org.tropos.scm.replication.ReplicationConfig;

/**
 * SCM's settings, typed and checked together.
 *
 * @param clientBind where the client/admin service listens
 * @param datanodeBind where the datanode service listens
 * @param dbDir directory of SCM's RocksDB
 * @param staleNodeInterval heartbeat age after which a node is STALE
 * @param deadNodeInterval heartbeat age after which a node is DEAD
 * @param nodeCheckInterval how often node states are re-evaluated
 * @param heartbeatInterval the datanodes' heartbeat interval
 * @param pipelineLimits per-node and cluster-wide pipeline limits
 * @param singleReplicaPipelines whether every usable datanode gets a RATIS/ONE pipeline
 * @param pipelineCreationInterval how often pipelines are filled up and leaders rebalanced
 * @param blockBind where the block service listens
 * @param containerSize bytes a container takes before it is full
 * @param blockSize the largest block
 * @param blockDeletion how the blocks of deleted keys are sent to the datanodes
 * @param replication how containers are kept at their number of replicas
 * @param status where the status port (/prom, /health, /ready, the web console) listens, over HTTP and HTTPS as
 *     ozone.http.policy says; in a secure cluster the console is served over HTTPS alone, to a client certificate
 *     of the cluster
 * @param omHttp the OM's status port, whose summary the console shows
 * @param gatewayHttp the S3 gateway's status port, whose request counts the console shows
 * @param ha this SCM's place in an HA service ({@code ozone.scm.service.ids}), empty for a single SCM
 * @param security whether the cluster runs secure; where the CA's public files and SCM's own key and certificate
 *     are kept ({@code scm-security} beside the database); how keys and certificates are made
 * @param administrators who may change the cluster's datanodes and pipelines ({@code ozone.administrators} and
 *     {@code .groups}; the user running SCM always may), and who may read SCM's views
 *     ({@code ozone.readonly.administrators})
 * @param kerberos SCM's principal and keytab, when its client port accepts users' Kerberos tickets (a secure
 *     cluster only)
 */
public record ScmConfig(HostPort clientBind, HostPort datanodeBind, Path dbDir, Duration staleNodeInterval,
    Duration deadNodeInterval, Duration nodeCheckInterval, Duration heartbeatInterval, PipelineLimits pipelineLimits,
    boolean singleReplicaPipelines, Duration pipelineCreationInterval, HostPort blockBind, DataSize containerSize,
    DataSize blockSize, BlockDeletionConfig blockDeletion, ReplicationConfig replication, StatusPorts status,
    HostPort omHttp, HostPort gatewayHttp, Optional<Ha> ha, SecuritySettings security,
    Administration.Settings administrators, Optional<KerberosService> kerberos) {

  private static final int HTTP_PORT = 9876;
  private static final int HTTPS_PORT = 9877;

  /**
   * An SCM of an HA service.
   *
   * @param service the service's SCMs
   * @param self this SCM among them
   * @param ratisDir where this SCM's Raft log is kept ({@code ozone.scm.ha.ratis.storage.dir}, else
   *     {@code scm-ratis} beside the database)
   * @param snapshots when this SCM snapshots its database and purges its Raft log
   * @param ratisProperties Ratis keys set through {@code ozone.scm.ratis.raft.*} ({@link RatisPassThrough}),
   *     applied over Tropos's own choices
   * @param primordialNode the SCM that makes the cluster's identity and CA in a secure service
   *     ({@code ozone.scm.primordial.node.id}, else the first node configured)
   */
  public record Ha(ScmService service, ScmService.Node self, Path ratisDir, RaftSnapshotPolicy snapshots,
      Map<String, String> ratisProperties, String primordialNode) {

    public Ha {
      ratisProperties = Map.copyOf(ratisProperties);
      if (service.nodes().stream().noneMatch(n -> n.id().equals(primordialNode))) {
        throw new ConfigException(ScmKeys.PRIMORDIAL_NODE_ID.name() + " " + primordialNode + " is not a node of"
            + " SCM service " + service.id() + " " + service.nodes().stream().map(ScmService.Node::id).toList());
      }
    }

    /** Whether this SCM is the primordial one. */
    public boolean primordial() {
      return self.id().equals(primordialNode);
    }
  }

  public ScmConfig {
    if (deadNodeInterval.compareTo(staleNodeInterval) <= 0) {
      throw new ConfigException(ScmKeys.DEAD_NODE_INTERVAL.name() + " (" + deadNodeInterval + ") must be longer than "
          + ScmKeys.STALE_NODE_INTERVAL.name() + " (" + staleNodeInterval + ")");
    }
  }

  public static ScmConfig from(Configuration conf) {
    Duration heartbeat = conf.get(DatanodeKeys.HEARTBEAT_INTERVAL);
    Duration stale = conf.get(ScmKeys.STALE_NODE_INTERVAL);
    if (stale.compareTo(heartbeat) <= 0) {
      throw new ConfigException(ScmKeys.STALE_NODE_INTERVAL.name() + " (" + stale + ") must be longer than "
          + DatanodeKeys.HEARTBEAT_INTERVAL.name() + " (" + heartbeat + ")");
    }
    Path dbDir = dbDir(conf);
    Optional<Ha> ha = ScmService.from(conf).map(service -> new Ha(service,
        service.local(conf, LocalHosts::isLocal), ratisDir(conf, dbDir), new RaftSnapshotPolicy(
            conf.get(ScmKeys.RATIS_SNAPSHOT_THRESHOLD), conf.get(ScmKeys.RATIS_LOG_PURGE_GAP),
            conf.get(ScmKeys.RATIS_SEGMENT_SIZE).bytes()), RatisPassThrough.of(conf, RatisPassThrough.SCM),
        primordialNode(conf, service)));
    int clientPort = ha.map(h -> h.self().clientPort()).orElse(conf.get(ScmKeys.CLIENT_PORT));
    int datanodePort = ha.map(h -> h.self().datanodePort()).orElse(conf.get(ScmKeys.DATANODE_PORT));
    int blockPort = ha.map(h -> h.self().blockPort()).orElse(conf.get(ScmKeys.BLOCK_PORT));
    return new ScmConfig(
        new HostPort(conf.get(ScmKeys.CLIENT_BIND_HOST), clientPort),
        new HostPort(conf.get(ScmKeys.DATANODE_BIND_HOST), datanodePort),
        dbDir, stale, conf.get(ScmKeys.DEAD_NODE_INTERVAL), conf.get(ScmKeys.NODE_CHECK_INTERVAL), heartbeat,
        PipelineLimits.from(conf), conf.get(ScmKeys.PIPELINE_AUTO_FACTOR_ONE),
        conf.get(ScmKeys.PIPELINE_CREATION_INTERVAL),
        new HostPort(conf.get(ScmKeys.CLIENT_BIND_HOST), blockPort),
        conf.get(ScmKeys.CONTAINER_SIZE), conf.get(ScmKeys.BLOCK_SIZE), BlockDeletionConfig.from(conf, heartbeat),
        ReplicationConfig.from(conf),
        StatusPorts.of(conf, ScmKeys.HTTP_ADDRESS, HTTP_PORT, ScmKeys.HTTPS_ADDRESS, HTTPS_PORT),
        ScmAddresses.omHttp(conf), ScmAddresses.gatewayHttp(conf), ha,
        SecuritySettings.from(conf, dbDir.resolveSibling("scm-security")), Administration.Settings.from(conf),
        KerberosService.from(conf, SecurityKeys.SCM_KERBEROS_PRINCIPAL, SecurityKeys.SCM_KERBEROS_KEYTAB));
  }

  private static String primordialNode(Configuration conf, ScmService service) {
    String named = conf.get(ScmKeys.PRIMORDIAL_NODE_ID);
    return named.isBlank() ? service.nodes().get(0).id() : named;
  }

  private static Path ratisDir(Configuration conf, Path dbDir) {
    List<String> dirs = conf.get(ScmKeys.RATIS_STORAGE_DIR);
    return dirs.isEmpty() ? dbDir.resolveSibling("scm-ratis") : Path.of(dirs.get(0));
  }

  private static Path dbDir(Configuration conf) {
    List<String> dirs = conf.get(ScmKeys.DB_DIRS);
    if (dirs.isEmpty()) {
      dirs = conf.get(CommonKeys.METADATA_DIRS);
    }
    if (dirs.isEmpty()) {
      throw new ConfigException("Set " + ScmKeys.DB_DIRS.name() + " or " + CommonKeys.METADATA_DIRS.name()
          + ": SCM needs a directory for its database");
    }
    return Path.of(dirs.get(0)).resolve("scm.db");
  }
}
