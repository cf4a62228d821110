package org.tropos.scm.replication;

import java.time.Duration;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;

/**
 * How SCM's replication manager runs.
 *
 * @param interval how often it plans
 * @param timeout how long SCM waits for a command it sent before planning it again
 * @param datanodeOffset how much earlier than SCM a datanode gives up on the command
 * @param perNodeLimit copies a datanode may be receiving at once
 * @param inFlightFactor the cluster-wide limit on copies, as a share of healthy nodes times {@code perNodeLimit}
 * @param maintenanceMinimum healthy replicas kept on in-service nodes while others are in maintenance
 */
public record ReplicationConfig(Duration interval, Duration timeout, Duration datanodeOffset, int perNodeLimit,
    double inFlightFactor, int maintenanceMinimum) {

  public ReplicationConfig {
    if (datanodeOffset.compareTo(timeout) >= 0) {
      throw new ConfigException(ScmKeys.REPLICATION_DATANODE_OFFSET.name() + " (" + datanodeOffset
          + ") must be shorter than " + ScmKeys.REPLICATION_TIMEOUT.name() + " (" + timeout + ")");
    }
  }

  public static ReplicationConfig from(Configuration conf) {
    return new ReplicationConfig(conf.get(ScmKeys.REPLICATION_INTERVAL), conf.get(ScmKeys.REPLICATION_TIMEOUT),
        conf.get(ScmKeys.REPLICATION_DATANODE_OFFSET), conf.get(ScmKeys.REPLICATION_DATANODE_LIMIT),
        conf.get(ScmKeys.REPLICATION_INFLIGHT_FACTOR), conf.get(ScmKeys.REPLICATION_MAINTENANCE_MINIMUM));
  }
}
