package org.tropos.tools.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.http.HttpPolicy;
import org.tropos.common.net.RackResolvers;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.util.SystemClock;
import org.tropos.datanode.DatanodeConfig;
import org.tropos.datanode.DatanodeServer;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.s3.S3Gateway;
import org.tropos.scm.ScmConfig;
import org.tropos.scm.ScmServer;

/**
 * SCM, the OM and N datanodes in one process on loopback, with all data under one directory: {@code tropos local}, and
 * the in-process mini cluster of the integration tests.
 *
 * <p>Each datanode gets its own loopback address ({@code 127.0.0.11}, {@code 127.0.0.12}, ...) so it looks like
 * a host of its own: racks are mapped per address by a topology table ({@code /rack1}, {@code /rack2}
 * alternating), and every datanode can use the standard ports. Data lives in {@code <dir>/scm}, {@code <dir>/om}
 * and {@code <dir>/dn<i>} ({@link LocalLayout}); starting again on the same directory brings the same cluster and node
 * ids back.
 *
 * <p>Not thread-safe: one owner starts, stops and restarts nodes.
 */
public final class LocalCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
  private static final String LOOPBACK = LocalAddresses.LOOPBACK;

  private final LocalLayout layout;
  private final int datanodeCount;
  private final boolean ha;
  private final KeptDatanodePorts datanodePorts = new KeptDatanodePorts();
  private Configuration base;
  /** The SCMs: one, or the nodes of an HA service. */
  private final List<ScmServer> scms = new ArrayList<>();
  /** Each SCM's configuration, for its restarts. */
  private final List<Configuration> scmConfs = new ArrayList<>();
  /** Ozone's keys of the HA services (empty without), for clients. */
  private final Map<String, String> serviceKeys = new LinkedHashMap<>();
  /** The OMs: one, or the nodes of an HA service. */
  private final List<OmServer> oms = new ArrayList<>();
  private S3Gateway s3;
  private final List<DatanodeServer> datanodes = new ArrayList<>();

  /**
   * @param volumesPerNode data volumes per datanode ({@code dn<i>/data1..V}), standing in for disks
   * @param raftDirsPerNode RaftLog directories per datanode ({@code dn<i>/ratis1..R})
   * @param base configuration shared by all nodes (the conf dir's, plus any test settings); SCM and Ratis ports
   *     of 0 pick free ports once, kept across restarts
   */
  public LocalCluster(Path dataDir, int datanodeCount, int volumesPerNode, int raftDirsPerNode, Configuration base) {
    this(dataDir, datanodeCount, volumesPerNode, raftDirsPerNode, false, base);
  }

  /**
   * As above; with {@code ha}, an HA service of three SCMs ({@link LocalScmService}) and one of three OMs
   * ({@link LocalOmService}).
   */
  public LocalCluster(Path dataDir, int datanodeCount, int volumesPerNode, int raftDirsPerNode, boolean ha,
      Configuration base) {
    this.ha = ha;
    if (datanodeCount < 1 || datanodeCount > 200) {
      throw new IllegalArgumentException("datanodes must be between 1 and 200, not " + datanodeCount);
    }
    if (volumesPerNode < 1 || raftDirsPerNode < 1) {
      throw new IllegalArgumentException("each datanode needs at least one volume and one RaftLog directory");
    }
    this.layout = new LocalLayout(dataDir, volumesPerNode, raftDirsPerNode);
    this.datanodeCount = datanodeCount;
    this.base = base;
  }

  public void start() throws IOException {
    if (!HttpPolicy.of(base).http()) {
      throw new ConfigException(CommonKeys.HTTP_POLICY.name() + " is HTTPS_ONLY: a local cluster keeps its status"
          + " ports' HTTP side, which it lists (the console is over HTTPS anyway); use HTTP_AND_HTTPS");
    }
    Files.createDirectories(layout.root());
    try {
      startScm();
      startOm();
      for (int i = 1; i <= datanodeCount; i++) {
        datanodes.add(null);
        startDatanode(i);
      }
      startS3Gateway();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void startScm() throws IOException {
    Files.writeString(layout.topologyTable(), LocalAddresses.topologyTable(datanodeCount));
    Configuration conf = LocalDaemonConfs.scms(base, layout.topologyTable());
    if (!ha) {
      scms.add(startScm(scmConf(conf, layout.scm()), ""));
      pinScmPorts();
      trustTheClustersCa();
      return;
    }
    LocalScmService local = LocalScmService.load(layout.root(), conf.get(ScmKeys.CLIENT_PORT),
        conf.get(ScmKeys.DATANODE_PORT), conf.get(ScmKeys.BLOCK_PORT), conf.get(ScmKeys.RATIS_PORT));
    Map<String, String> keys = local.service().toKeys();
    serviceKeys.putAll(keys);
    base = base.with(keys);
    for (int i = 0; i < LocalScmService.NODES; i++) {
      String node = LocalScmService.nodeId(i);
      // The first SCM is the primordial one: in a secure cluster it makes the CA, which the others join with.
      scms.add(startScm(scmConf(LocalDaemonConfs.haScm(conf, keys, node), layout.node(node)),
          i == 0 ? "" : LocalCertificates.scmJoinToken(base, scms.get(0), SystemClock.INSTANCE)));
    }
    scm();
    trustTheClustersCa();
  }

  /**
   * In a secure cluster, its clients (the tools, tests) trust its CA, whose certificate the serving SCM wrote, and
   * act as the user who started it (the OM's own user, an administrator) with a certificate issued to that user,
   * kept in {@code user/identity.pem}.
   */
  private void trustTheClustersCa() throws IOException {
    if (!LocalCertificates.secure(base)) {
      return;
    }
    ServiceCertificates user = LocalCertificates.user(layout.user(), base, issuer());
    base = base.with(Map.of(SecurityKeys.CA_FILE.name(), scm().caFile().toString(),
        SecurityKeys.IDENTITY_FILE.name(), user.file().toString()));
    LocalCertificates.writeBrowserIdentity(user.identity(), layout.browserIdentity());
  }

  /** The configuration of the SCM kept in {@code dir}, remembered for its restarts ({@link #restartScm}). */
  private Configuration scmConf(Configuration conf, Path dir) {
    Configuration own = LocalDaemonConfs.scmIn(conf, dir);
    scmConfs.add(own);
    return own;
  }

  private static ScmServer startScm(Configuration own, String bootstrapToken) throws IOException {
    ScmServer scm = new ScmServer(ScmConfig.from(own), RackResolvers.fromConfig(own), SystemClock.INSTANCE,
        bootstrapToken);
    scm.start();
    return scm;
  }

  private void startOm() throws IOException {
    Configuration conf = LocalDaemonConfs.oms(base);
    if (!ha) {
      OmServer om = new OmServer(OmConfig.from(LocalDaemonConfs.om(conf, scm().blockPort(), layout.om())),
          SystemClock.INSTANCE, issuer());
      oms.add(om);
      om.start();
      base = base.with(Map.of(OmKeys.PORT.name(), Integer.toString(om.port()),
          OmKeys.ADDRESS.name(), LOOPBACK + ":" + om.port()));
      return;
    }
    LocalOmService service = LocalOmService.load(layout.root(), conf.get(OmKeys.PORT), conf.get(OmKeys.RATIS_PORT));
    // The cluster's clients (the S3 gateway, tools) call the service; ozone.om.address names the first OM for
    // those given one address, which follow NOT_LEADER to the leader.
    serviceKeys.putAll(service.keys());
    base = base.with(service.keys()).with(OmKeys.ADDRESS.name(), service.address(0).toString());
    for (int i = 0; i < LocalOmService.NODES; i++) {
      String node = LocalOmService.nodeId(i);
      oms.add(new OmServer(OmConfig.from(LocalDaemonConfs.haOm(conf, service.keys(), node, layout.node(node))),
          SystemClock.INSTANCE, issuer()));
    }
    for (OmServer om : oms) {
      om.start();
    }
  }

  private void startS3Gateway() throws IOException {
    s3 = new S3Gateway(LocalDaemonConfs.s3Gateway(base, layout.s3Gateway()), SystemClock.INSTANCE, issuer());
    s3.start();
  }

  /** The S3 gateway's endpoint. */
  public String s3Endpoint() {
    return "http://" + LOOPBACK + ":" + s3.port();
  }

  /** The S3 gateway's HTTPS endpoint, when the cluster is secure. */
  public Optional<String> s3HttpsEndpoint() {
    return s3.httpsPort().map(port -> "https://" + LOOPBACK + ":" + port);
  }

  /** Stops the OMs and starts them again on the same ports and databases. */
  public void restartOm() throws IOException {
    oms.forEach(OmServer::close);
    oms.clear();
    startOm();
  }

  /** The OM, or with an HA service its leader (the first OM while none leads). */
  public OmServer om() {
    return oms.stream().filter(OmServer::serving).findFirst().orElse(oms.get(0));
  }

  /**
   * The keys a client of this cluster needs to reach it when it runs secure (security on, the CA file to trust,
   * the certificate of the user who started it); empty when it does not.
   */
  public Map<String, String> securityKeys() {
    return base.get(SecurityKeys.SECURITY_ENABLED) ? Map.of(SecurityKeys.SECURITY_ENABLED.name(), "true",
        SecurityKeys.CA_FILE.name(), base.get(SecurityKeys.CA_FILE),
        SecurityKeys.IDENTITY_FILE.name(), base.get(SecurityKeys.IDENTITY_FILE)) : Map.of();
  }

  /** Ozone's keys of the OM and SCM HA services (empty without HA), for clients' configuration. */
  public Map<String, String> serviceKeys() {
    return Map.copyOf(serviceKeys);
  }

  /** Every OM (one, or the HA service's). */
  public List<OmServer> oms() {
    return List.copyOf(oms);
  }

  /** The cluster's CA in this JVM, where the other daemons get their certificates when the cluster runs secure. */
  private CertificateIssuer issuer() {
    return LocalCertificates.issuer(scm());
  }

  /** Keeps the ports a single SCM bound (free ones, when configured as 0) for its restarts and the datanodes. */
  private void pinScmPorts() {
    ScmServer scm = scms.get(0);
    base = base.with(Map.of(ScmKeys.DATANODE_PORT.name(), Integer.toString(scm.datanodePort()),
        ScmKeys.CLIENT_PORT.name(), Integer.toString(scm.clientPort()),
        ScmKeys.BLOCK_PORT.name(), Integer.toString(scm.blockPort())));
  }

  /** Starts datanode {@code i} (1-based), again if it was stopped. */
  public void startDatanode(int i) throws IOException {
    Configuration conf = LocalDaemonConfs.datanode(base, layout, i, datanodePorts);
    if (!ha) {
      conf = conf.with(ScmKeys.DATANODE_ADDRESS.name(), LOOPBACK + ":" + scm().datanodePort());
    }
    DatanodeServer datanode = new DatanodeServer(DatanodeConfig.from(conf), issuer());
    datanode.start();
    datanodes.set(i - 1, datanode);
  }

  /** Stops datanode {@code i} (1-based) as a clean shutdown would. */
  public void stopDatanode(int i) {
    DatanodeServer datanode = datanodes.set(i - 1, null);
    if (datanode != null) {
      datanode.close();
    }
  }

  /** Stops SCM and starts it again on the same ports and database. */
  public void restartScm() throws IOException {
    restartScm(Map.of());
  }

  /**
   * Stops SCM (every SCM of an HA service) and starts it again on the same ports and databases, with
   * {@code settings} changed from now on.
   */
  public void restartScm(Map<String, String> settings) throws IOException {
    if (!ha) {
      pinScmPorts();
    }
    base = base.with(settings);
    closeScms();
    startScm();
  }

  /** The SCM, or with an HA service the one that serves (its leader), waiting for one while there is none. */
  public ScmServer scm() {
    return ScmReadiness.serving(scms);
  }

  /**
   * Waits until a write of keys with replication {@code factor} would succeed: the serving SCM has an OPEN
   * pipeline of that size (every member reported the group with its leader), so a block is allocated at once.
   *
   * @throws java.util.concurrent.TimeoutException if none is there within {@code timeout}
   */
  public void awaitWritable(ReplicationFactor factor, Duration timeout) throws Exception {
    ScmReadiness.awaitWritable(this::scm, factor, timeout);
  }

  /**
   * Waits as {@link #awaitWritable} does, but returns false as soon as SCM finds the datanodes' volumes without room
   * (hdds.datanode.volume.min.free.space): waiting longer would not help.
   */
  public boolean awaitWritableOrFull(ReplicationFactor factor, Duration timeout) throws Exception {
    return ScmReadiness.awaitWritableOrFull(this::scm, factor, timeout);
  }

  /** Every SCM (one, or the HA service's); a stopped one is null. */
  public List<ScmServer> scms() {
    return new ArrayList<>(scms);
  }

  /**
   * Starts SCM {@code i} (0-based) of the HA service again, stopped before, on its directory as it is now (an
   * SCM whose directory was lost joins the secure service again with {@code bootstrapToken}).
   */
  public void restartScm(int i, String bootstrapToken) throws IOException {
    if (scms.get(i) != null) {
      throw new IllegalStateException("SCM " + i + " runs");
    }
    scms.set(i, startScm(scmConfs.get(i), bootstrapToken));
  }

  /** Stops SCM {@code i} (0-based) of the HA service, as a crash would stop its services. */
  public void stopScm(int i) {
    ScmServer stopped = scms.set(i, null);
    if (stopped != null) {
      stopped.close();
    }
  }

  private void closeScms() {
    for (int i = scms.size() - 1; i >= 0; i--) {
      stopScm(i);
    }
    scms.clear();
    scmConfs.clear();
  }

  /** Datanode {@code i} (1-based), or null while it is stopped. */
  public DatanodeServer datanode(int i) {
    return datanodes.get(i - 1);
  }

  public int datanodeCount() {
    return datanodeCount;
  }

  public static String datanodeAddress(int i) {
    return LocalAddresses.datanode(i);
  }

  public static String rackOf(int i) {
    return LocalAddresses.rack(i);
  }

  /** What runs where, for people. */
  public String describe() {
    return LocalClusterDescription.of(this, layout, base, ha, s3);
  }

  @Override
  public void close() {
    // The reverse of start: each daemon stops before those it calls.
    if (s3 != null) {
      s3.close();
    }
    for (int i = datanodes.size(); i >= 1; i--) {
      try {
        stopDatanode(i);
      } catch (RuntimeException e) {
        LOG.warn("Error stopping datanode {}: {}", i, e.toString());
      }
    }
    for (int i = oms.size() - 1; i >= 0; i--) {
      oms.get(i).close();
    }
    closeScms();
  }
}
