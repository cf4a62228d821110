package org.tropos.common.conf;

import java.util.List;

/** Keys of the S3 gateway (and of who may act for other users there). */
public final class S3GatewayKeys {
  public static final ConfigKey<String> HTTP_ADDRESS = ConfigKey.of("ozone.s3g.http-address", ConfigType.STRING,
      "0.0.0.0:9878", "host:port the S3 gateway listens on; port 0 = any free port.");
  public static final ConfigKey<String> HTTPS_ADDRESS = ConfigKey.of("ozone.s3g.https-address", ConfigType.STRING,
      "0.0.0.0:9879", "host:port the S3 gateway serves HTTPS on in a secure cluster (ozone.security.enabled), with"
          + " its certificate from the cluster's CA, beside HTTP; a host here is also the name the certificate"
          + " carries. Port 0 = any free port.");
  public static final ConfigKey<String> WEBADMIN_HTTP_ADDRESS = ConfigKey.of("ozone.s3g.webadmin.http-address",
      ConfigType.STRING, "0.0.0.0:19878", "host:port of the gateway's status port (/prom, /health, /ready), apart"
          + " from the S3 port where every path may be a bucket; port 0 = any free port.");
  public static final ConfigKey<String> WEBADMIN_HTTPS_ADDRESS = ConfigKey.of("ozone.s3g.webadmin.https-address",
      ConfigType.STRING, "0.0.0.0:19879", "host:port of the gateway's HTTPS status port (ozone.http.policy); port 0"
          + " = any free port.");
  public static final ConfigKey<List<String>> DOMAIN_NAMES = ConfigKey.of("ozone.s3g.domain.name", ConfigType.LIST,
      "", "Domain names of the gateway for virtual-host-style addressing (<bucket>.<domain>); empty = path style"
          + " only.");
  public static final ConfigKey<String> VOLUME = ConfigKey.of("ozone.s3g.volume.name", ConfigType.STRING, "s3v",
      "The volume that holds S3 buckets.");
  public static final ConfigKey<String> DEFAULT_BUCKET_LAYOUT = ConfigKey.of("ozone.s3g.default.bucket.layout",
      ConfigType.STRING, "OBJECT_STORE", "Layout of buckets created through S3: OBJECT_STORE or"
          + " FILE_SYSTEM_OPTIMIZED.").requiring(v -> v.equals("FILE_SYSTEM_OPTIMIZED") || v.equals("OBJECT_STORE"),
              "FILE_SYSTEM_OPTIMIZED or OBJECT_STORE");
  public static final ConfigKey<Integer> MAX_CONCURRENT_REQUESTS = ConfigKey.of("ozone.s3g.max.concurrent.requests",
      ConfigType.INT, "256", "Requests the gateway serves at once; more are answered 503 SlowDown.")
      .requiring(v -> v >= 1, ">= 1");
  public static final ConfigKey<List<String>> STORAGE_CLASSES = ConfigKey.of("ozone.s3g.storage.classes",
      ConfigType.LIST, "", "S3 storage classes a write may ask for (x-amz-storage-class) besides STANDARD, which is"
          + " the bucket's own replication: CLASS=REPLICATION entries, REPLICATION one of RATIS/ONE, RATIS/THREE or"
          + " EC/<config>, e.g. STANDARD_IA=EC/rs-6-3-1024k,REDUCED_REDUNDANCY=RATIS/ONE. A key is listed with the"
          + " first class configured for its replication, else STANDARD; a class not configured is answered"
          + " NotImplemented.");

  private S3GatewayKeys() {
  }
}
