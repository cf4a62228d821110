package org.tropos.tools.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DatanodeKeys;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.S3GatewayKeys;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.http.HttpPolicy;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.RackResolvers;
import org.tropos.common.net.ScmService;
import org.tropos.common.rpc.Callers;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.datanode.DatanodeConfig;
import org.tropos.datanode.DatanodeServer;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.s3.S3Gateway;
import org.tropos.s3.S3GatewayConfig;
import org.tropos.scm.ScmConfig;
import org.tropos.scm.ScmServer;
import org.tropos.scm.security.ScmSecurityFiles;

/**
 * SCM, the OM and N datanodes in one process on loopback, with all data under one directory: {@code tropos local}, and
 * the in-process mini cluster of the integration tests.
 *
 * <p>Each datanode gets its own loopback address ({@code 127.0.0.11}, {@code 127.0.0.12}, ...) so it looks like
 * a host of its own: racks are mapped per address by a topology table ({@code /rack1}, {@code /rack2}
 * alternating), and every datanode can use the standard ports. Data lives in {@code <dir>/scm}, {@code <dir>/om}
 * and {@code <dir>/dn<i>}; starting again on the same directory brings the same cluster and node ids back.
 *
 * <p>Not thread-safe: one owner starts, stops and restarts nodes.
 */
public final class LocalCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
  private static final String LOOPBACK = "127.0.0.1";
  private static final int FIRST_DATANODE_OCTET = 11;
  private static final Duration SCM_LEADER_WAIT = Duration.ofSeconds(60);
  /** How long a token an SCM joins the secure HA service with may be used: it is used at once. */
  private static final Duration SCM_JOIN_TOKEN_VALIDITY = Duration.ofMinutes(10);

  private final Path dataDir;
  private final int datanodeCount;
  private final int volumesPerNode;
  private final int raftDirsPerNode;
  private final boolean ha;
  private final Map<String, Integer> pinnedPorts = new HashMap<>();
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
    this.dataDir = dataDir.toAbsolutePath().normalize();
    this.datanodeCount = datanodeCount;
    this.volumesPerNode = volumesPerNode;
    this.raftDirsPerNode = raftDirsPerNode;
    this.base = base;
  }

  public void start() throws IOException {
    if (!HttpPolicy.of(base).http()) {
      throw new ConfigException(CommonKeys.HTTP_POLICY.name() + " is HTTPS_ONLY: a local cluster keeps its status"
          + " ports' HTTP side, which it lists (the console is over HTTPS anyway); use HTTP_AND_HTTPS");
    }
    Files.createDirectories(dataDir);
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
    Path table = dataDir.resolve("topology.table");
    StringBuilder racks = new StringBuilder("# Written by tropos local: datanode address -> rack\n");
    for (int i = 1; i <= datanodeCount; i++) {
      racks.append(datanodeAddress(i)).append(' ').append(rackOf(i)).append('\n');
    }
    Files.writeString(table, racks);
    Configuration conf = base.with(Map.of(
        ScmKeys.CLIENT_BIND_HOST.name(), LOOPBACK,
        ScmKeys.DATANODE_BIND_HOST.name(), LOOPBACK,
        ScmKeys.HTTP_ADDRESS.name(), onLoopback(ScmKeys.HTTP_ADDRESS, 0),
        ScmKeys.HTTPS_ADDRESS.name(), onLoopback(ScmKeys.HTTPS_ADDRESS, 0),
        ScmKeys.TOPOLOGY_MAPPING_IMPL.name(), RackResolvers.TABLE_MAPPING,
        ScmKeys.TOPOLOGY_TABLE_FILE.name(), table.toString()));
    if (!ha) {
      scms.add(startScm(scmConf(conf, dataDir.resolve("scm")), ""));
      pinScmPorts();
      trustTheClustersCa();
      return;
    }
    LocalScmService local = LocalScmService.load(dataDir, conf.get(ScmKeys.CLIENT_PORT),
        conf.get(ScmKeys.DATANODE_PORT), conf.get(ScmKeys.BLOCK_PORT), conf.get(ScmKeys.RATIS_PORT));
    Map<String, String> keys = local.service().toKeys();
    serviceKeys.putAll(keys);
    base = base.with(keys);
    for (int i = 0; i < LocalScmService.NODES; i++) {
      String node = LocalScmService.nodeId(i);
      // The first SCM is the primordial one: in a secure cluster it makes the CA, which the others join with.
      scms.add(startScm(scmConf(conf.with(keys).with(Map.of(ScmKeys.NODE_ID.name(), node,
          ScmKeys.HTTP_ADDRESS.name(), LOOPBACK + ":0", ScmKeys.HTTPS_ADDRESS.name(), LOOPBACK + ":0")),
          dataDir.resolve(node)), i == 0 ? "" : scmJoinToken()));
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
    if (!base.get(SecurityKeys.SECURITY_ENABLED)) {
      return;
    }
    ServiceCertificates user;
    try {
      user = ServiceCertificates.join(dataDir.resolve("user"), ServiceRole.USER, Callers.localUser(),
          X509Settings.from(base), issuer());
    } catch (GeneralSecurityException e) {
      throw new IOException("the certificate of user " + Callers.localUser() + " cannot be made: " + e.getMessage(),
          e);
    }
    base = base.with(Map.of(SecurityKeys.CA_FILE.name(), scm().caFile().toString(),
        SecurityKeys.IDENTITY_FILE.name(), user.file().toString()));
    writeBrowserIdentity(user.identity(), browserIdentity());
  }

  /** Where the user's certificate is kept for a browser (the web console): PKCS#12, no password. */
  private Path browserIdentity() {
    return dataDir.resolve("user").resolve("identity.p12");
  }

  /** The user's key and certificate as PKCS#12, readable by its owner alone, for a browser to import. */
  private static void writeBrowserIdentity(ServiceCertificates.Identity identity, Path file) throws IOException {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("tropos", identity.key(), new char[0], identity.chain().toArray(new Certificate[0]));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      store.store(bytes, new char[0]);
      Files.deleteIfExists(file);
      PemFiles.writeOwnerOnly(file, bytes.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A token for an SCM joining the secure HA service, minted from the primordial SCM's security directory; none
   * when the cluster is not secure. An SCM that holds the CA already (a restart) does not use it.
   */
  private String scmJoinToken() throws IOException {
    if (!base.get(SecurityKeys.SECURITY_ENABLED)) {
      return "";
    }
    return ScmSecurityFiles.read(scms.get(0).caFile().getParent()).mint(ServiceRole.SCM,
        SystemClock.INSTANCE.wallTime().plus(SCM_JOIN_TOKEN_VALIDITY));
  }

  /** The configuration of the SCM kept in {@code dir}, remembered for its restarts ({@link #restartScm}). */
  private Configuration scmConf(Configuration conf, Path dir) {
    Configuration own = conf.with(Map.of(CommonKeys.METADATA_DIRS.name(), dir.toString(),
        ScmKeys.DB_DIRS.name(), dir.toString()));
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
    Configuration conf = base.with(Map.of(
        OmKeys.BIND_HOST.name(), LOOPBACK,
        OmKeys.HTTP_ADDRESS.name(), onLoopback(OmKeys.HTTP_ADDRESS, 0),
        OmKeys.HTTPS_ADDRESS.name(), onLoopback(OmKeys.HTTPS_ADDRESS, 0)));
    if (!ha) {
      conf = conf.with(ScmKeys.BLOCK_ADDRESS.name(), LOOPBACK + ":" + scm().blockPort());
      OmServer om = new OmServer(OmConfig.from(conf.with(Map.of(
          CommonKeys.METADATA_DIRS.name(), dataDir.resolve("om").toString(),
          OmKeys.DB_DIRS.name(), dataDir.resolve("om").toString()))), SystemClock.INSTANCE, issuer());
      oms.add(om);
      om.start();
      base = base.with(Map.of(OmKeys.PORT.name(), Integer.toString(om.port()),
          OmKeys.ADDRESS.name(), LOOPBACK + ":" + om.port()));
      return;
    }
    LocalOmService service = LocalOmService.load(dataDir, conf.get(OmKeys.PORT), conf.get(OmKeys.RATIS_PORT));
    // The cluster's clients (the S3 gateway, tools) call the service; ozone.om.address names the first OM for
    // those given one address, which follow NOT_LEADER to the leader.
    serviceKeys.putAll(service.keys());
    base = base.with(service.keys()).with(OmKeys.ADDRESS.name(), service.address(0).toString());
    for (int i = 0; i < LocalOmService.NODES; i++) {
      Path dir = dataDir.resolve(LocalOmService.nodeId(i));
      oms.add(new OmServer(OmConfig.from(conf.with(service.keys()).with(Map.of(
          CommonKeys.METADATA_DIRS.name(), dir.toString(), OmKeys.DB_DIRS.name(), dir.toString(),
          OmKeys.NODE_ID.name(), LocalOmService.nodeId(i),
          OmKeys.HTTP_ADDRESS.name(), LOOPBACK + ":0", OmKeys.HTTPS_ADDRESS.name(), LOOPBACK + ":0"))),
          SystemClock.INSTANCE, issuer()));
    }
    for (OmServer om : oms) {
      om.start();
    }
  }

  /** The address {@code key} configures, moved to loopback (every port of a local cluster is), its port kept. */
  private String onLoopback(ConfigKey<String> key, int defaultPort) {
    return LOOPBACK + ":" + HostPort.parse(base.get(key), defaultPort, key.name()).port();
  }

  private void startS3Gateway() throws IOException {
    Configuration conf = base.with(Map.of(
        S3GatewayKeys.HTTP_ADDRESS.name(), onLoopback(S3GatewayKeys.HTTP_ADDRESS, S3GatewayConfig.DEFAULT_PORT),
        S3GatewayKeys.WEBADMIN_HTTP_ADDRESS.name(), onLoopback(S3GatewayKeys.WEBADMIN_HTTP_ADDRESS,
            S3GatewayConfig.STATUS_PORT),
        S3GatewayKeys.HTTPS_ADDRESS.name(), onLoopback(S3GatewayKeys.HTTPS_ADDRESS, S3GatewayConfig.HTTPS_PORT),
        S3GatewayKeys.WEBADMIN_HTTPS_ADDRESS.name(), onLoopback(S3GatewayKeys.WEBADMIN_HTTPS_ADDRESS,
            S3GatewayConfig.STATUS_HTTPS_PORT)));
    s3 = new S3Gateway(conf.with(CommonKeys.METADATA_DIRS.name(), dataDir.resolve("s3g").toString()),
        SystemClock.INSTANCE, issuer());
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
    return scm().certificateIssuer().orElseGet(() -> CertificateIssuer.none("the cluster's SCM holds no CA: it"
        + " does not run secure"));
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
    Path home = dataDir.resolve("dn" + i);
    Map<String, String> own = new HashMap<>();
    own.put(CommonKeys.METADATA_DIRS.name(), home.toString());
    own.put(DatanodeKeys.DATA_DIRS.name(), numbered(home, "data", volumesPerNode));
    own.put(DatanodeKeys.RAFT_LOG_DIRS.name(), numbered(home, "ratis", raftDirsPerNode));
    own.put(DatanodeKeys.HOSTNAME.name(), datanodeAddress(i));
    own.put(DatanodeKeys.RATIS_PORT.name(), Integer.toString(pinnedPort(i, DatanodeKeys.RATIS_PORT)));
    own.put(DatanodeKeys.READ_PORT.name(), Integer.toString(pinnedPort(i, DatanodeKeys.READ_PORT)));
    // Each datanode has a loopback address of its own, so all may take the configured status port.
    own.put(DatanodeKeys.HTTP_ADDRESS.name(), datanodeAddress(i) + ":"
        + HostPort.parse(base.get(DatanodeKeys.HTTP_ADDRESS), 0, DatanodeKeys.HTTP_ADDRESS.name()).port());
    own.put(DatanodeKeys.HTTPS_ADDRESS.name(), datanodeAddress(i) + ":"
        + HostPort.parse(base.get(DatanodeKeys.HTTPS_ADDRESS), 0, DatanodeKeys.HTTPS_ADDRESS.name()).port());
    if (!ha) {
      own.put(ScmKeys.DATANODE_ADDRESS.name(), LOOPBACK + ":" + scm().datanodePort());
    }
    DatanodeServer datanode = new DatanodeServer(DatanodeConfig.from(base.with(own)), issuer());
    datanode.start();
    datanodes.set(i - 1, datanode);
  }

  private static String numbered(Path home, String prefix, int count) {
    List<String> dirs = new ArrayList<>();
    for (int k = 1; k <= count; k++) {
      dirs.add(home.resolve(prefix + k).toString());
    }
    return String.join(",", dirs);
  }

  /**
   * The configured port, or with 0 a free port picked on first start and kept: a datanode's Ratis address is in
   * every Raft group it belongs to, and clients hold its read address, so neither may change across restarts.
   */
  private int pinnedPort(int i, ConfigKey<Integer> key) throws IOException {
    int configured = base.get(key);
    if (configured != 0) {
      return configured;
    }
    Integer pinned = pinnedPorts.get(key.name() + "#" + i);
    if (pinned == null) {
      pinned = KeptPorts.pick(InetAddress.getByName(datanodeAddress(i)));
      pinnedPorts.put(key.name() + "#" + i, pinned);
    }
    return pinned;
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
    ScmServer[] serving = {null};
    try {
      Threads.awaitCondition("an SCM that serves", SCM_LEADER_WAIT, Duration.ofMillis(50), () -> {
        serving[0] = scms.stream().filter(s -> s != null && s.serving()).findFirst().orElse(null);
        return serving[0] != null;
      });
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("no SCM of the local cluster serves: " + e.getMessage(), e);
    }
    return serving[0];
  }

  /**
   * Waits until a write of keys with replication {@code factor} would succeed: the serving SCM has an OPEN
   * pipeline of that size (every member reported the group with its leader), so a block is allocated at once.
   *
   * @throws java.util.concurrent.TimeoutException if none is there within {@code timeout}
   */
  public void awaitWritable(ReplicationFactor factor, Duration timeout) throws Exception {
    Threads.awaitCondition("OPEN RATIS/" + factor + " pipeline", timeout, Duration.ofMillis(100),
        () -> scm().containerManager().canAllocate(factor));
  }

  /**
   * Waits as {@link #awaitWritable} does, but returns false as soon as SCM finds the datanodes' volumes without room
   * (hdds.datanode.volume.min.free.space): waiting longer would not help.
   */
  public boolean awaitWritableOrFull(ReplicationFactor factor, Duration timeout) throws Exception {
    Threads.awaitCondition("OPEN RATIS/" + factor + " pipeline or full datanodes", timeout, Duration.ofMillis(100),
        () -> scm().containerManager().canAllocate(factor) || scm().containerManager().shortOfRoom(factor));
    return scm().containerManager().canAllocate(factor);
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
    return "127.0.0." + (FIRST_DATANODE_OCTET + i - 1);
  }

  public static String rackOf(int i) {
    return i % 2 == 1 ? "/rack1" : "/rack2";
  }

  /** What runs where, for people. */
  public String describe() {
    StringBuilder out = new StringBuilder();
    ScmServer serving = scm();
    out.append(String.format("Tropos local cluster %s, data in %s%n", serving.identity().clusterId(), dataDir));
    Optional<Integer> consolePort = serving.httpsPort();
    if (consolePort.isPresent()) {
      // By name: SCM's certificate names localhost, which a browser or curl checks.
      out.append(String.format("  web console  https://localhost:%d/   to your certificate: import %s into the"
          + " browser (no password) and trust %s, or curl --cacert %s --cert %s%n  status       every daemon:"
          + " /prom, /health, /ready on its status port (SCM's http://%s:%d/)%n", consolePort.get(),
          browserIdentity(), base.get(SecurityKeys.CA_FILE), base.get(SecurityKeys.CA_FILE),
          base.get(SecurityKeys.IDENTITY_FILE), LOOPBACK, serving.httpPort()));
    } else {
      out.append(String.format("  web console  http://%s:%d/   (every daemon: /prom, /health, /ready on its status"
          + " port)%n", LOOPBACK, serving.httpPort()));
    }
    if (!ha) {
      out.append(String.format("  SCM          client/admin %s:%d   blocks %s:%d   datanodes %s:%d   db %s%n",
          LOOPBACK, serving.clientPort(), LOOPBACK, serving.blockPort(), LOOPBACK, serving.datanodePort(),
          dataDir.resolve("scm")));
    }
    for (ScmService.Node node : ha ? ScmService.from(base).orElseThrow().nodes() : List.<ScmService.Node>of()) {
      out.append(String.format("  SCM %-8s client/admin %s   blocks %s   datanodes %s   Raft %s   db %s%n", node.id(),
          node.client(), node.block(), node.datanode(), node.ratis(), dataDir.resolve(node.id())));
    }
    for (int i = 0; i < oms.size(); i++) {
      OmServer om = oms.get(i);
      String name = oms.size() == 1 ? "OM" : "OM " + LocalOmService.nodeId(i);
      out.append(String.format("  %-12s client %s:%d   status http://%s:%d/prom   db %s%n", name, LOOPBACK, om.port(),
          LOOPBACK, om.httpPort(), dataDir.resolve(oms.size() == 1 ? "om" : LocalOmService.nodeId(i))));
    }
    if (s3 != null) {
      out.append(String.format("  S3 gateway   %s   status http://%s:%d/prom%n", s3Endpoint(), LOOPBACK,
          s3.statusPort()));
      s3HttpsEndpoint().ifPresent(https -> out.append(String.format("  S3 (HTTPS)   %s   CA certificate %s"
          + " (aws --ca-bundle)%n", https, scm().caFile())));
    }
    for (int i = 1; i <= datanodeCount; i++) {
      DatanodeServer dn = datanodes.get(i - 1);
      out.append(String.format("  datanode %-3d %-12s %-7s id %s   status %s   data %s%n", i, datanodeAddress(i),
          rackOf(i), dn == null ? "(stopped)" : dn.id().uuid(),
          dn == null ? "-" : "http://" + datanodeAddress(i) + ":" + dn.httpPort() + "/prom",
          dataDir.resolve("dn" + i)));
    }
    return out.toString();
  }

  @Override
  public void close() {
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
