package org.tropos.tools.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import org.tropos.common.rpc.Callers;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DatanodeKeys;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.S3Secret;
import org.tropos.tools.local.LocalClientConf;
import org.tropos.tools.local.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tropos local}: a whole cluster on loopback in one process, for a first try and for development. */
@Command(name = "local", mixinStandardHelpOptions = true,
    description = {"Start SCM, OM, N datanodes (racks /rack1, /rack2 alternating) and the S3 gateway on loopback in"
        + " this process.",
        "Prints its endpoints once keys of the default replication (ozone.replication) can be written.",
        "Stops cleanly on Ctrl-C; started again on the same --data-dir it brings back the same cluster."})
public final class LocalCommand implements Callable<Integer> {
  /** How long the start waits for the cluster to take writes before it says why it does not. */
  private static final Duration WRITABLE_WAIT = Duration.ofSeconds(120);

  @Mixin
  private ConfigOptions config;

  @Option(names = "--datanodes", paramLabel = "N", defaultValue = "3", description = "Datanodes (default: 3).")
  private int datanodes;

  @Option(names = "--volumes", paramLabel = "V", defaultValue = "1",
      description = "Data volumes per datanode, directories standing in for disks (default: 1).")
  private int volumes;

  @Option(names = "--raft-dirs", paramLabel = "R", defaultValue = "1",
      description = "RaftLog directories per datanode, standing in for disks (default: 1).")
  private int raftDirs;

  @Option(names = "--ha", description = "Three OMs and three SCMs, each trio one HA service (Ozone's"
      + " ozone.om.service.ids and ozone.scm.service.ids keys; the ports are kept in DATA_DIR/om-service.properties"
      + " and DATA_DIR/scm-service.properties).")
  private boolean ha;

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = ".tropos-local",
      description = "Where all data lives (default: ./.tropos-local; CLI commands run in this directory then reach"
          + " the cluster with its client settings, DATA_DIR/client-conf).")
  private Path dataDir;

  @Override
  public Integer call() throws Exception {
    Configuration conf = config.loadForDaemon();
    // Secure unless told otherwise: its own CA, TLS between all its parts, a certificate for the user who starts it.
    if (!conf.isSet(SecurityKeys.SECURITY_ENABLED)) {
      conf = conf.with(SecurityKeys.SECURITY_ENABLED.name(), "true");
    }
    // A local cluster is watched by a person: report changes within seconds, not minutes.
    if (!conf.isSet(DatanodeKeys.HEARTBEAT_INTERVAL)) {
      conf = conf.with(DatanodeKeys.HEARTBEAT_INTERVAL.name(), "3s");
    }
    if (!conf.isSet(ScmKeys.PIPELINE_CREATION_INTERVAL)) {
      conf = conf.with(ScmKeys.PIPELINE_CREATION_INTERVAL.name(), "10s");
    }
    LocalCluster cluster = new LocalCluster(dataDir, datanodes, volumes, raftDirs, ha, conf);
    cluster.start();
    Map<String, String> clientKeys = new TreeMap<>(cluster.serviceKeys());
    clientKeys.putAll(cluster.securityKeys());
    Path clientConf = LocalClientConf.write(dataDir, clientKeys);
    System.out.print(cluster.describe());
    awaitWritable(cluster, conf);
    S3Secret secret = s3Secret(conf, cluster);
    System.out.printf("  S3 credentials   awsAccessKey=%s awsSecret=%s%n", secret.getAccessId(), secret.getSecret());
    System.out.println("Try: tropos sh volume create /vol1, tropos sh bucket create /vol1/bucket1,"
        + " tropos sh key put /vol1/bucket1/key FILE, tropos admin pipeline list   (Ctrl-C stops the cluster)");
    System.out.printf("     AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s aws --endpoint-url %s s3 mb s3://bucket1%n",
        secret.getAccessId(), secret.getSecret(), cluster.s3Endpoint());
    if (ha) {
      System.out.printf("  OM HA service: clients configured by %s (tropos admin om roles --conf %s)%n",
          clientConf, clientConf.getParent());
    }
    if (!cluster.securityKeys().isEmpty()) {
      System.out.printf("  Secure: clients trust its CA and act as %s with the settings in %s (read by CLI commands"
          + " run here; elsewhere --conf %s)%n", Callers.localUser(), clientConf, clientConf.getParent());
    }
    System.out.flush();
    return Daemons.runUntilStopped(cluster);
  }

  /**
   * Returns once a key of the default replication ({@code ozone.replication}) can be written, so nobody is handed
   * the endpoints of a cluster that cannot take a write yet (SCM places pipelines once the datanodes' registrations
   * settle, and they form within seconds); past {@link #WRITABLE_WAIT} it says why not and lets the cluster run.
   */
  private static void awaitWritable(LocalCluster cluster, Configuration conf) throws Exception {
    ReplicationFactor factor = conf.get(OmKeys.DEFAULT_REPLICATION) == 1 ? ReplicationFactor.ONE
        : ReplicationFactor.THREE;
    System.out.printf("Waiting until keys with %s can be written ...%n", factor == ReplicationFactor.ONE
        ? "one replica" : "three replicas");
    System.out.flush();
    try {
      if (!cluster.awaitWritableOrFull(factor, WRITABLE_WAIT)) {
        System.err.printf("tropos local: no key can be written: fewer than %d datanodes have more than %s free on"
            + " their data volumes (%s, kept back for writes already accepted); free some space, or lower it on a"
            + " small disk: -D %s=1GB%n", factor.getNumber(), conf.get(DatanodeKeys.VOLUME_MIN_FREE_SPACE),
            DatanodeKeys.VOLUME_MIN_FREE_SPACE.name(), DatanodeKeys.VOLUME_MIN_FREE_SPACE.name());
      }
    } catch (TimeoutException e) {
      System.err.printf("tropos local: no OPEN RATIS/%s pipeline after %d s, so writes wait for one (RATIS/THREE"
          + " needs 3 HEALTHY datanodes; RATIS/ONE needs %s); see tropos admin pipeline list%n", factor,
          WRITABLE_WAIT.toSeconds(), ScmKeys.PIPELINE_AUTO_FACTOR_ONE.name() + "=true");
    }
  }

  /** The current user's S3 credentials (created on the first start), so the printed example works as is. */
  private static S3Secret s3Secret(Configuration conf, LocalCluster cluster) throws IOException, OmException {
    try (TroposClient client = TroposClient.create(conf.with(cluster.securityKeys()).with(OmKeys.ADDRESS.name(),
        "127.0.0.1:" + cluster.om().port()))) {
      return client.getS3Secret(Callers.localUser(), true);
    }
  }
}
