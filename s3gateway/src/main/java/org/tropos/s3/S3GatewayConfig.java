package org.tropos.s3;

import java.nio.file.Path;
import java.util.List;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.S3GatewayKeys;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.http.StatusPorts;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.LocalHosts;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.security.SecuritySettings;
import org.tropos.proto.om.BucketLayout;
import org.tropos.s3.ops.StorageClasses;

/**
 * The gateway's settings.
 *
 * @param bind where it listens
 * @param domains domain names for virtual-host-style addressing
 * @param volume the volume of S3 buckets
 * @param layout layout of buckets created through S3
 * @param maxConcurrent requests served at once (more get 503 SlowDown)
 * @param status where the status port (/prom, /health, /ready) listens: apart from the S3 port, where
 *     {@code /prom} would be a bucket
 * @param scmConsole SCM's status port, where the cluster's web console is (linked from the gateway's)
 * @param security whether the cluster runs secure, and where the gateway keeps its key and certificate
 *     ({@code s3g-security} in the first of {@code ozone.metadata.dirs})
 * @param httpsBind where it serves HTTPS in a secure cluster
 * @param storageClasses the storage classes writes may ask for, and how each is stored
 */
public record S3GatewayConfig(HostPort bind, List<String> domains, String volume, BucketLayout layout,
    int maxConcurrent, StatusPorts status, HostPort scmConsole, SecuritySettings security, HostPort httpsBind,
    StorageClasses storageClasses) {
  public static final int DEFAULT_PORT = 9878;
  public static final int HTTPS_PORT = 9879;
  public static final int STATUS_PORT = 19878;
  public static final int STATUS_HTTPS_PORT = 19879;

  public static S3GatewayConfig from(Configuration conf) {
    return new S3GatewayConfig(HostPort.parse(conf.get(S3GatewayKeys.HTTP_ADDRESS), DEFAULT_PORT,
        S3GatewayKeys.HTTP_ADDRESS.name()), conf.get(S3GatewayKeys.DOMAIN_NAMES), conf.get(S3GatewayKeys.VOLUME),
        BucketLayout.valueOf(conf.get(S3GatewayKeys.DEFAULT_BUCKET_LAYOUT)),
        conf.get(S3GatewayKeys.MAX_CONCURRENT_REQUESTS),
        StatusPorts.of(conf, S3GatewayKeys.WEBADMIN_HTTP_ADDRESS, STATUS_PORT, S3GatewayKeys.WEBADMIN_HTTPS_ADDRESS,
            STATUS_HTTPS_PORT), ScmAddresses.scmHttp(conf),
        SecuritySettings.from(conf, securityDir(conf)), HostPort.parse(conf.get(S3GatewayKeys.HTTPS_ADDRESS),
            HTTPS_PORT, S3GatewayKeys.HTTPS_ADDRESS.name()),
        StorageClasses.parse(conf.get(S3GatewayKeys.STORAGE_CLASSES)));
  }

  /**
   * The host the gateway's certificate names: the HTTPS address's host when it names one (clients check the
   * certificate against the host they reach), else this machine's name.
   */
  public String certificateHost() {
    String host = httpsBind.host();
    return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") ? LocalHosts.name() : host;
  }

  private static Path securityDir(Configuration conf) {
    List<String> dirs = conf.get(CommonKeys.METADATA_DIRS);
    if (dirs.isEmpty()) {
      if (conf.get(SecurityKeys.SECURITY_ENABLED)) {
        throw new ConfigException("Set " + CommonKeys.METADATA_DIRS.name() + ": in a secure cluster the S3 gateway"
            + " keeps its key and certificate there");
      }
      return Path.of("s3g-security");
    }
    return Path.of(dirs.get(0)).resolve("s3g-security");
  }
}
