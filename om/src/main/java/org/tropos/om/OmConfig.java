package org.tropos.om;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.S3GatewayKeys;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.http.StatusPorts;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.LocalHosts;
import org.tropos.common.net.OmService;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.Callers;
import org.tropos.common.security.Administration;
import org.tropos.common.security.KerberosService;
import org.tropos.common.security.SecuritySettings;
import org.tropos.om.acl.Authorizer;
import org.tropos.om.acl.Authorizers;
import org.tropos.om.kms.HadoopKms;
import org.tropos.om.ratis.OmHaConfig;
import org.tropos.om.namespace.BucketDefaults;
import org.tropos.om.rpc.OmRpc;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;

/**
 * The OM's settings, typed and checked together.
 *
 * @param bind where the client service listens
 * @param dbDir directory of the OM's RocksDB
 * @param scmBlockAddresses SCM's block service, on each SCM of an HA service
 * @param handlerThreads threads that read and execute requests in parallel
 * @param maxConflictRetries re-runs of a conflicting request before TOO_MANY_CONFLICTS
 * @param commitBatchMax most transactions per group commit
 * @param bucketDefaults layout and replication of buckets created without them
 * @param blockSize the largest block (SCM's setting, which clients also read)
 * @param directoryPurgeInterval how often the contents of deleted directories are purged
 * @param containerLocationTtl how long a container's location from SCM answers lookups
 * @param containerLocationsKept most container locations kept for lookups
 * @param status where the status port (/prom, /health, /ready) listens, over HTTP and HTTPS as ozone.http.policy
 *     says
 * @param scmConsole SCM's status port, where the cluster's web console is (linked from the OM's)
 * @param administrators who administers the cluster besides the user running the OM, and who reads all
 * @param ha this OM's place in an HA service ({@code ozone.om.service.ids}), empty for a single OM
 * @param security whether the cluster runs secure, and where the OM keeps its key and certificate
 *     ({@code om-security} beside the database)
 * @param kerberos the OM's principal and keytab, when it accepts users' Kerberos tickets (a secure cluster only)
 * @param tokens how long the delegation tokens the OM issues last
 * @param access how the OM decides who may do what
 * @param kms the KMS of SSE-KMS keys ({@code hadoop.security.key.provider.path}), called as the OM's user; empty:
 *     none
 */
public record OmConfig(HostPort bind, Path dbDir, List<HostPort> scmBlockAddresses, int handlerThreads,
    int maxConflictRetries, int commitBatchMax, BucketDefaults bucketDefaults,
    long blockSize, Duration directoryPurgeInterval, Duration containerLocationTtl, int containerLocationsKept,
    StatusPorts status, HostPort scmConsole, Administration.Settings administrators, Optional<OmHaConfig> ha,
    SecuritySettings security, Optional<KerberosService> kerberos, TokenLifetimes tokens, Access access,
    Optional<HadoopKms> kms) {

  /**
   * How the OM decides access.
   *
   * @param enabled whether it checks ACLs at all ({@code ozone.acl.enabled})
   * @param s3Volume the S3 gateway's volume ({@code ozone.s3g.volume.name})
   * @param authorizer what decides ({@code ozone.acl.authorizer.class}, {@link Authorizers})
   */
  public record Access(boolean enabled, String s3Volume, Authorizer authorizer) {
    static Access from(Configuration conf) {
      String s3Volume = conf.get(S3GatewayKeys.VOLUME);
      return new Access(conf.get(OmKeys.ACL_ENABLED), s3Volume, Authorizers.of(conf, s3Volume));
    }

    /** The settings of the OM's client service. */
    public OmRpc.AccessSettings settings() {
      return new OmRpc.AccessSettings(authorizer, enabled, s3Volume);
    }
  }

  /**
   * How long a delegation token lasts: {@code renewInterval} after its issue or last renewal, never more than
   * {@code maxLifetime} after its issue.
   */
  public record TokenLifetimes(Duration renewInterval, Duration maxLifetime) {
  }

  private static final int HTTP_PORT = 9874;
  private static final int HTTPS_PORT = 9875;

  public static OmConfig from(Configuration conf) {
    Path dbDir = dbDir(conf);
    Optional<OmHaConfig> ha = OmService.from(conf).map(service -> OmHaConfig.from(conf, service,
        service.local(conf, LocalHosts::isLocal), ratisDir(conf, dbDir)));
    int port = ha.map(h -> h.self().rpc().port()).orElse(conf.get(OmKeys.PORT));
    return new OmConfig(new HostPort(conf.get(OmKeys.BIND_HOST), port), dbDir,
        ScmAddresses.blockServices(conf), conf.get(OmKeys.HANDLER_COUNT), conf.get(OmKeys.MAX_CONFLICT_RETRIES),
        conf.get(OmKeys.COMMIT_BATCH_MAX), bucketDefaults(conf),
        conf.get(ScmKeys.BLOCK_SIZE).bytes(), conf.get(OmKeys.DIRECTORY_PURGE_INTERVAL),
        conf.get(OmKeys.CONTAINER_LOCATION_TTL), conf.get(OmKeys.CONTAINER_LOCATION_CACHE_SIZE),
        StatusPorts.of(conf, OmKeys.HTTP_ADDRESS, HTTP_PORT, OmKeys.HTTPS_ADDRESS, HTTPS_PORT),
        ScmAddresses.scmHttp(conf), Administration.Settings.from(conf), ha,
        SecuritySettings.from(conf, dbDir.resolveSibling("om-security")),
        KerberosService.from(conf, SecurityKeys.OM_KERBEROS_PRINCIPAL, SecurityKeys.OM_KERBEROS_KEYTAB),
        new TokenLifetimes(conf.get(SecurityKeys.TOKEN_RENEW_INTERVAL), conf.get(SecurityKeys.TOKEN_MAX_LIFETIME)),
        Access.from(conf), kms(conf));
  }

  /**
   * ozone.default.bucket.layout, and ozone.server.default.replication.type with ozone.server.default.replication (for
   * RATIS, empty: ozone.replication); a replication that does not fit its type fails startup naming the key.
   */
  private static BucketDefaults bucketDefaults(Configuration conf) {
    BucketLayout layout = BucketLayout.valueOf(conf.get(OmKeys.DEFAULT_BUCKET_LAYOUT));
    String replication = conf.get(OmKeys.SERVER_DEFAULT_REPLICATION).trim();
    if (conf.get(OmKeys.SERVER_DEFAULT_REPLICATION_TYPE).equals("EC")) {
      try {
        return new BucketDefaults(layout, ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED,
            Optional.of(EcReplication.parse(replication).toProto()));
      } catch (IllegalArgumentException e) {
        throw ConfigException.invalidValue(OmKeys.SERVER_DEFAULT_REPLICATION.name(), replication, "with "
            + OmKeys.SERVER_DEFAULT_REPLICATION_TYPE.name() + " = EC, " + e.getMessage());
      }
    }
    int factor = replication.isEmpty() ? conf.get(OmKeys.DEFAULT_REPLICATION) : switch (replication) {
      case "1", "ONE" -> 1;
      case "3", "THREE" -> 3;
      default -> throw ConfigException.invalidValue(OmKeys.SERVER_DEFAULT_REPLICATION.name(), replication,
          "1 or 3 with " + OmKeys.SERVER_DEFAULT_REPLICATION_TYPE.name() + " = RATIS");
    };
    return new BucketDefaults(layout, factor == 1 ? ReplicationFactor.ONE : ReplicationFactor.THREE);
  }

  private static Optional<HadoopKms> kms(Configuration conf) {
    try {
      return HadoopKms.of(conf.get(OmKeys.KEY_PROVIDER_PATH), Callers.localUser());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  private static Path ratisDir(Configuration conf, Path dbDir) {
    List<String> dirs = conf.get(OmKeys.RATIS_STORAGE_DIR);
    return dirs.isEmpty() ? dbDir.resolveSibling("om-ratis") : Path.of(dirs.get(0));
  }

  private static Path dbDir(Configuration conf) {
    List<String> dirs = conf.get(OmKeys.DB_DIRS);
    if (dirs.isEmpty()) {
      dirs = conf.get(CommonKeys.METADATA_DIRS);
    }
    if (dirs.isEmpty()) {
      throw new ConfigException("Set " + OmKeys.DB_DIRS.name() + " or " + CommonKeys.METADATA_DIRS.name()
          + ": the OM needs a directory for its database");
    }
    return Path.of(dirs.get(0)).resolve("om.db");
  }
}
