package org.tropos.datanode;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DatanodeKeys;
import org.tropos.common.conf.RatisPassThrough;
import org.tropos.common.http.StatusPorts;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.security.SecuritySettings;
import org.tropos.datanode.container.ScrubConfig;

/**
 * The datanode's settings, typed and checked together.
 *
 * @param dataDirs data volumes (hdds.datanode.dir)
 * @param raftLogDirs RaftLog directories
 * @param idDir directory of the datanode.id file
 * @param hostName the name (or IP) the datanode advertises
 * @param ipAddress the address of {@code hostName}
 * @param scms SCM's datanode service, on each SCM of an HA service
 * @param heartbeatInterval how often to heartbeat
 * @param ratisPort advertised Ratis port
 * @param readPort advertised read port
 * @param status where the status port (/prom, /health, /ready) listens, over HTTP and HTTPS as ozone.http.policy
 *     says
 * @param diskCheckInterval how often directories are probed
 * @param diskCheckTimeout how long a probe may take before the directory counts as failed
 * @param replicationStreams how many container copies run at once
 * @param replicationTimeout how long a container copy waits on its source
 * @param scrub how the container scrubber runs
 * @param ratisSnapshotThreshold log entries between two snapshots of a pipeline's Raft group
 * @param ratisProperties Ratis keys set through {@code hdds.ratis.raft.*} ({@link RatisPassThrough})
 * @param directIoThreshold the least bytes of a chunk written, or a range read, past the page cache (0: none)
 * @param volumeReservedBytes free space kept back on each data volume for writes already accepted
 * @param security whether the cluster runs secure, and where the datanode keeps its key and certificate
 *     ({@code security} in the id directory)
 */
public record DatanodeConfig(List<Path> dataDirs, List<Path> raftLogDirs, Path idDir, String hostName,
    String ipAddress, List<HostPort> scms, Duration heartbeatInterval, int ratisPort, int readPort, StatusPorts status,
    Duration diskCheckInterval, Duration diskCheckTimeout, int replicationStreams, Duration replicationTimeout,
    ScrubConfig scrub, long ratisSnapshotThreshold, Map<String, String> ratisProperties, long directIoThreshold,
    long volumeReservedBytes, SecuritySettings security) {

  private static final int HTTP_PORT = 9882;
  private static final int HTTPS_PORT = 9883;

  public DatanodeConfig {
    dataDirs = List.copyOf(dataDirs);
    raftLogDirs = List.copyOf(raftLogDirs);
    ratisProperties = Map.copyOf(ratisProperties);
  }

  public static DatanodeConfig from(Configuration conf) {
    List<String> metadataDirs = conf.get(CommonKeys.METADATA_DIRS);
    String host = conf.get(DatanodeKeys.HOSTNAME).isBlank() ? localHostName() : conf.get(DatanodeKeys.HOSTNAME);
    Path idDir = dirs(conf.get(DatanodeKeys.ID_DIR).isBlank() ? List.of() : List.of(conf.get(DatanodeKeys.ID_DIR)),
        metadataDirs, "", DatanodeKeys.ID_DIR.name()).get(0);
    return new DatanodeConfig(
        dirs(conf.get(DatanodeKeys.DATA_DIRS), metadataDirs, "hdds", DatanodeKeys.DATA_DIRS.name()),
        dirs(conf.get(DatanodeKeys.RAFT_LOG_DIRS), metadataDirs, "ratis", DatanodeKeys.RAFT_LOG_DIRS.name()),
        idDir,
        host, ipOf(host), ScmAddresses.datanodeServices(conf), conf.get(DatanodeKeys.HEARTBEAT_INTERVAL),
        conf.get(DatanodeKeys.RATIS_PORT), conf.get(DatanodeKeys.READ_PORT),
        StatusPorts.of(conf, DatanodeKeys.HTTP_ADDRESS, HTTP_PORT, DatanodeKeys.HTTPS_ADDRESS, HTTPS_PORT),
        conf.get(DatanodeKeys.DISK_CHECK_INTERVAL), conf.get(DatanodeKeys.DISK_CHECK_TIMEOUT),
        conf.get(DatanodeKeys.REPLICATION_STREAMS), conf.get(DatanodeKeys.REPLICATION_TIMEOUT),
        ScrubConfig.from(conf), conf.get(DatanodeKeys.RATIS_SNAPSHOT_THRESHOLD),
        RatisPassThrough.of(conf, RatisPassThrough.DATANODE), conf.get(DatanodeKeys.DIRECT_IO_THRESHOLD).bytes(),
        conf.get(DatanodeKeys.VOLUME_MIN_FREE_SPACE).bytes(), SecuritySettings.from(conf, idDir.resolve("security")));
  }

  /** The configured directories, else {@code <first metadata dir>/<fallback>}. */
  private static List<Path> dirs(List<String> configured, List<String> metadataDirs, String fallback, String key) {
    if (!configured.isEmpty()) {
      return configured.stream().map(Path::of).toList();
    }
    if (metadataDirs.isEmpty()) {
      throw new ConfigException("Set " + key + " or " + CommonKeys.METADATA_DIRS.name()
          + ": the datanode needs a directory for it");
    }
    return List.of(Path.of(metadataDirs.get(0)).resolve(fallback));
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      throw new ConfigException("Cannot find this machine's host name (" + e.getMessage() + "); set "
          + DatanodeKeys.HOSTNAME.name());
    }
  }

  private static String ipOf(String host) {
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException e) {
      throw new ConfigException("Invalid value '" + host + "' for " + DatanodeKeys.HOSTNAME.name()
          + ": the name does not resolve");
    }
  }
}
