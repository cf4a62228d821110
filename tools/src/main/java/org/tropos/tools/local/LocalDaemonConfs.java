package org.tropos.tools.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DatanodeKeys;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.S3GatewayKeys;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.net.RackResolvers;
import org.tropos.s3.S3GatewayConfig;

/**
 * Each daemon's own configuration in a local cluster, made from the one all share (the conf dir's, plus any test
 * settings): its addresses moved to loopback, as a local cluster serves this host alone, and its directories placed
 * by the {@link LocalLayout}, so that one base configuration runs every daemon side by side.
 */
final class LocalDaemonConfs {
  private static final String LOOPBACK = LocalAddresses.LOOPBACK;

  private LocalDaemonConfs() {
  }

  /** What every SCM of the cluster shares: loopback, and racks from the cluster's topology table. */
  static Configuration scms(Configuration base, Path topologyTable) {
    return base.with(Map.of(
        ScmKeys.CLIENT_BIND_HOST.name(), LOOPBACK,
        ScmKeys.DATANODE_BIND_HOST.name(), LOOPBACK,
        ScmKeys.HTTP_ADDRESS.name(), onLoopback(base, ScmKeys.HTTP_ADDRESS, 0),
        ScmKeys.HTTPS_ADDRESS.name(), onLoopback(base, ScmKeys.HTTPS_ADDRESS, 0),
        ScmKeys.TOPOLOGY_MAPPING_IMPL.name(), RackResolvers.TABLE_MAPPING,
        ScmKeys.TOPOLOGY_TABLE_FILE.name(), topologyTable.toString()));
  }

  /** SCM {@code node} of the HA service {@code serviceKeys} describe; free status ports, as three share a host. */
  static Configuration haScm(Configuration scms, Map<String, String> serviceKeys, String node) {
    return scms.with(serviceKeys).with(Map.of(ScmKeys.NODE_ID.name(), node,
        ScmKeys.HTTP_ADDRESS.name(), LOOPBACK + ":0", ScmKeys.HTTPS_ADDRESS.name(), LOOPBACK + ":0"));
  }

  /** The SCM {@code conf} describes, kept in {@code dir}. */
  static Configuration scmIn(Configuration conf, Path dir) {
    return conf.with(Map.of(CommonKeys.METADATA_DIRS.name(), dir.toString(), ScmKeys.DB_DIRS.name(), dir.toString()));
  }

  /** What every OM of the cluster shares: loopback. */
  static Configuration oms(Configuration base) {
    return base.with(Map.of(
        OmKeys.BIND_HOST.name(), LOOPBACK,
        OmKeys.HTTP_ADDRESS.name(), onLoopback(base, OmKeys.HTTP_ADDRESS, 0),
        OmKeys.HTTPS_ADDRESS.name(), onLoopback(base, OmKeys.HTTPS_ADDRESS, 0)));
  }

  /** The single OM, kept in {@code dir}, allocating blocks from the SCM at {@code scmBlockPort}. */
  static Configuration om(Configuration oms, int scmBlockPort, Path dir) {
    return oms.with(ScmKeys.BLOCK_ADDRESS.name(), LOOPBACK + ":" + scmBlockPort).with(Map.of(
        CommonKeys.METADATA_DIRS.name(), dir.toString(),
        OmKeys.DB_DIRS.name(), dir.toString()));
  }

  /** OM {@code node} of the HA service {@code serviceKeys} describe, kept in {@code dir}, status ports free ones. */
  static Configuration haOm(Configuration oms, Map<String, String> serviceKeys, String node, Path dir) {
    return oms.with(serviceKeys).with(Map.of(
        CommonKeys.METADATA_DIRS.name(), dir.toString(), OmKeys.DB_DIRS.name(), dir.toString(),
        OmKeys.NODE_ID.name(), node,
        OmKeys.HTTP_ADDRESS.name(), LOOPBACK + ":0", OmKeys.HTTPS_ADDRESS.name(), LOOPBACK + ":0"));
  }

  /**
   * Datanode {@code i} (1-based) on its own loopback address and directories; without the SCM address, which only
   * a cluster without HA sets (the HA service's keys name the SCMs).
   */
  static Configuration datanode(Configuration base, LocalLayout layout, int i, KeptDatanodePorts ports)
      throws IOException {
    Map<String, String> own = new HashMap<>();
    own.put(CommonKeys.METADATA_DIRS.name(), layout.datanode(i).toString());
    own.put(DatanodeKeys.DATA_DIRS.name(), layout.datanodeVolumes(i));
    own.put(DatanodeKeys.RAFT_LOG_DIRS.name(), layout.datanodeRaftDirs(i));
    own.put(DatanodeKeys.HOSTNAME.name(), LocalAddresses.datanode(i));
    own.put(DatanodeKeys.RATIS_PORT.name(), Integer.toString(ports.port(base, i, DatanodeKeys.RATIS_PORT)));
    own.put(DatanodeKeys.READ_PORT.name(), Integer.toString(ports.port(base, i, DatanodeKeys.READ_PORT)));
    // Each datanode has a loopback address of its own, so all may take the configured status port.
    own.put(DatanodeKeys.HTTP_ADDRESS.name(), LocalAddresses.onDatanode(base, i, DatanodeKeys.HTTP_ADDRESS));
    own.put(DatanodeKeys.HTTPS_ADDRESS.name(), LocalAddresses.onDatanode(base, i, DatanodeKeys.HTTPS_ADDRESS));
    return base.with(own);
  }

  private static String onLoopback(Configuration base, ConfigKey<String> key, int defaultPort) {
    return LocalAddresses.onLoopback(base, key, defaultPort);
  }

  /** The S3 gateway on loopback, its ports as configured (else S3's usual ones), kept in {@code dir}. */
  static Configuration s3Gateway(Configuration base, Path dir) {
    return base.with(Map.of(
        S3GatewayKeys.HTTP_ADDRESS.name(), onLoopback(base, S3GatewayKeys.HTTP_ADDRESS, S3GatewayConfig.DEFAULT_PORT),
        S3GatewayKeys.WEBADMIN_HTTP_ADDRESS.name(), onLoopback(base, S3GatewayKeys.WEBADMIN_HTTP_ADDRESS,
            S3GatewayConfig.STATUS_PORT),
        S3GatewayKeys.HTTPS_ADDRESS.name(), onLoopback(base, S3GatewayKeys.HTTPS_ADDRESS,
            S3GatewayConfig.HTTPS_PORT),
        S3GatewayKeys.WEBADMIN_HTTPS_ADDRESS.name(), onLoopback(base, S3GatewayKeys.WEBADMIN_HTTPS_ADDRESS,
            S3GatewayConfig.STATUS_HTTPS_PORT)))
        .with(CommonKeys.METADATA_DIRS.name(), dir.toString());
  }
}
