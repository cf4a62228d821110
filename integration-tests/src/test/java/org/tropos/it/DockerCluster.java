package org.tropos.it;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerNetwork;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.net.ScmService;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;

/**
 * SCMs, OMs and datanodes as real {@code tropos} processes, each in its own container on one bridge network with
 * fixed addresses (a partitioned node comes back with its address, as a host would). The image is built from
 * {@code docker/Dockerfile} on the base that {@code .ci/docker-engine start} makes; nothing is pulled. The test
 * process is the client: it reaches every container by address, as the containers reach each other.
 *
 * <p>The cluster runs secure: the primordial SCM (scm1) keeps its security directory on the host, mounted read-only
 * at {@code /scm-security} in every other container, whose entrypoint mints the daemon's bootstrap token there
 * ({@code docker/tropos-entrypoint}); the test process acts as root (an administrator) with a certificate issued
 * by SCM, trusting the cluster's CA.
 */
public final class DockerCluster implements AutoCloseable {
  /** Made by {@code .ci/docker-engine start}: Debian minbase with a JRE, so no registry is needed. */
  public static final String BASE_IMAGE = "tropos-base:bookworm";
  /** The SCMs of the cluster's SCM HA service, at host addresses 5, 6, 7 of the subnet, on SCM's usual ports. */
  public static final List<String> SCMS = List.of("scm1", "scm2", "scm3");
  private static final String SCM_SERVICE = "scmservice";
  private static final int FIRST_SCM_HOST = 5;
  /** The OMs of the cluster's OM HA service, at host addresses 11, 12, 13 of the subnet. */
  public static final List<String> OMS = List.of("om1", "om2", "om3");
  private static final String OM_SERVICE = "omservice";
  private static final int FIRST_OM_HOST = 11;
  static final int OM_PORT = 9862;
  private static final int OM_RATIS_PORT = 9872;
  private static final int SCM_CLIENT_PORT = 9860;
  private static final int SCM_DATANODE_PORT = 9861;
  private static final int SCM_BLOCK_PORT = 9863;
  private static final int SCM_RATIS_PORT = 9894;
  /** SCM's security directory in its container (scm-security beside its database under ozone.metadata.dirs). */
  private static final String SCM_SECURITY_DIR = "/data/meta/scm-security";
  private static final Duration CERTIFICATE_WAIT = Duration.ofSeconds(120);

  /**
   * The suites' timings: a datanode DEAD after 24 s, replication every 2 s, small blocks and containers so a few
   * minutes of writes make many. Secure (TLS everywhere) with a dozen JVMs or more on two cores, a busy datanode's
   * heartbeat can lag 10 s, hence the 12 s to STALE.
   */
  static final Map<String, String> SUITE_SETTINGS = Map.of(
      "hdds.heartbeat.interval", "1s",
      "ozone.scm.stale.node.interval", "12s",
      "ozone.scm.dead.node.interval", "24s",
      "ozone.scm.block.size", "1MB",
      "ozone.scm.container.size", "8MB",
      "hdds.scm.replication.thread.interval", "2s",
      "hdds.scm.replication.event.timeout", "60s",
      "hdds.scm.replication.event.timeout.datanode.offset", "5s");
  private static final String S3G = "s3g";
  private static final int S3G_HOST = 40;
  private static final int S3G_PORT = 9878;

  private final Path repository;
  private final Path conf;
  private final Path logs;
  private ImageFromDockerfile image;
  private final String subnetPrefix;
  private final Network network;
  private final Map<String, GenericContainer<?>> containers = new LinkedHashMap<>();
  private final Map<String, String> addresses = new LinkedHashMap<>();
  /** The primordial SCM's security directory, on the host. */
  private final Path scmSecurity;
  /** The test process's certificate (root's), issued once SCM serves. */
  private Path userIdentity;

  /**
   * Starts an SCM HA service of three SCMs ({@link #SCMS}), an OM HA service of three OMs ({@link #OMS}) and
   * {@code racks.size()} datanodes named dn1, dn2, ... on the given racks.
   *
   * @param conf the directory to write the cluster's ozone-site.xml and topology table into
   * @param settings ozone-site.xml settings on top of the suite's (heartbeats, addresses, directories)
   */
  public DockerCluster(Path repository, Path conf, Path logs, List<String> racks, Map<String, String> settings) {
    this.repository = repository;
    this.conf = conf;
    this.logs = logs;
    this.scmSecurity = conf.resolveSibling(conf.getFileName() + "-scm-security");
    // A /24 unlikely to be taken on a CI machine, and not the one a crashed earlier run may have left behind.
    this.subnetPrefix = "10.213." + (100 + new Random().nextInt(100)) + ".";
    this.network = Network.builder().createNetworkCmdModifier(cmd -> cmd.withIpam(
        new com.github.dockerjava.api.model.Network.Ipam().withConfig(
            new com.github.dockerjava.api.model.Network.Ipam.Config().withSubnet(subnetPrefix + "0/24"))))
        .build();
    try {
      writeConf(conf, racks, settings);
      image = image();
      for (int i = 0; i < SCMS.size(); i++) {
        start(image, conf, SCMS.get(i), FIRST_SCM_HOST + i, List.of("scm", "--set",
            "ozone.scm.node.id=" + SCMS.get(i)));
      }
      for (int i = 0; i < OMS.size(); i++) {
        start(image, conf, OMS.get(i), FIRST_OM_HOST + i, List.of("om", "--set", "ozone.om.node.id=" + OMS.get(i)));
      }
      for (int i = 1; i <= racks.size(); i++) {
        String name = datanode(i);
        start(image, conf, name, 20 + i, List.of("datanode", "--set", "hdds.datanode.hostname=" + name));
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  /** Starts an S3 gateway on the cluster's network (its own certificate, as the other daemons); its S3 endpoint. */
  public URI startS3Gateway() {
    start(image, conf, S3G, S3G_HOST, List.of(S3G));
    return URI.create("http://" + address(S3G) + ":" + S3G_PORT);
  }

  /**
   * A cluster for a suite of this module with {@link #SUITE_SETTINGS} and the suite's own, its logs in
   * {@code target/<logs>}; the suite is skipped, saying why, where no engine answers.
   */
  static DockerCluster forSuite(String suite, String logs, List<String> racks, Map<String, String> settings)
      throws IOException {
    Map<String, String> all = new LinkedHashMap<>(SUITE_SETTINGS);
    all.putAll(settings);
    String unavailable = unavailableBecause();
    Assumptions.assumeTrue(unavailable == null, suite + " skipped: " + unavailable);
    Path target = Path.of("target").toAbsolutePath();
    Path conf = Files.createTempDirectory(target, "docker-conf");
    return new DockerCluster(target.getParent().getParent(), conf, target.resolve(logs), racks, all);
  }

  /** A client of the cluster as root, once the OM service serves. */
  TroposClient servingClient() throws Exception {
    TroposClient client = TroposClient.create(clientConfig());
    Await.until("the OM to serve", Duration.ofSeconds(60), () -> {
      try {
        client.listVolumes("");
        return "ready";
      } catch (OmException e) {
        return e.toString();
      }
    }, "ready"::equals);
    return client;
  }

  /** Why the suite cannot run here, or null when an engine answers and the base image is present. */
  public static String unavailableBecause() {
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      return "no Docker engine answers (start one with .ci/docker-engine start)";
    }
    try {
      DockerClientFactory.instance().client().inspectImageCmd(BASE_IMAGE).exec();
      return null;
    } catch (RuntimeException e) {
      return "the base image " + BASE_IMAGE + " is missing (.ci/docker-engine start makes it)";
    }
  }

  public static String datanode(int i) {
    return "dn" + i;
  }

  /**
   * A client configuration pointing at this cluster's OM and SCM services by address, as root (an administrator)
   * with a certificate of the cluster, issued the first time (once SCM serves).
   */
  public synchronized Configuration clientConfig() {
    if (userIdentity == null) {
      userIdentity = issueUserCertificate();
    }
    return Configuration.defaults().with(omServiceKeys()).with(scmService().toKeys()).with(Map.of(
        "ozone.security.enabled", "true", "tropos.security.ca.file", scmSecurity.resolve("ca.crt").toString(),
        "tropos.security.identity.file", userIdentity.toString()));
  }

  /** How the test process reaches the cluster's services: mutual TLS as root. */
  public TransportSecurity transport() {
    try {
      return SecuritySettings.userTransport(clientConfig());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Root's certificate, which SCM signs once it serves (asked again until then), written to the host. */
  private Path issueUserCertificate() {
    String out = SCM_SECURITY_DIR + "/user-root.pem";
    try {
      Await.until("SCM to sign root's certificate", CERTIFICATE_WAIT, () -> {
        try {
          exec(SCMS.get(0), "[ -f " + out + " ] || tropos admin cert issue --user root --out " + out
              + " --security-dir " + SCM_SECURITY_DIR);
          return "issued";
        } catch (IllegalStateException e) {
          return e.getMessage();
        }
      }, "issued"::equals);
    } catch (Exception e) {
      throw new IllegalStateException("root's certificate: " + e.getMessage(), e);
    }
    return scmSecurity.resolve("user-root.pem");
  }

  /** The SCM service, by address (as the containers and the test process reach its SCMs). */
  public ScmService scmService() {
    List<ScmService.Node> nodes = new ArrayList<>();
    for (int i = 0; i < SCMS.size(); i++) {
      nodes.add(new ScmService.Node(SCMS.get(i), subnetPrefix + (FIRST_SCM_HOST + i), SCM_CLIENT_PORT,
          SCM_DATANODE_PORT, SCM_BLOCK_PORT, SCM_RATIS_PORT));
    }
    return new ScmService(SCM_SERVICE, nodes);
  }

  /** Ozone's keys of the OM service, by address (as the OMs themselves and the test process reach them). */
  private Map<String, String> omServiceKeys() {
    List<OmService.Node> nodes = new ArrayList<>();
    for (int i = 0; i < OMS.size(); i++) {
      String host = subnetPrefix + (FIRST_OM_HOST + i);
      nodes.add(new OmService.Node(OMS.get(i), new HostPort(host, OM_PORT), new HostPort(host, OM_RATIS_PORT)));
    }
    return new OmService(OM_SERVICE, nodes).toKeys();
  }

  /** The client service of every SCM (only the leader's answers). */
  public List<HostPort> scmClientAddresses() {
    return scmService().nodes().stream().map(ScmService.Node::client).toList();
  }

  public String address(String name) {
    return addresses.get(name);
  }

  /** SIGKILL: the process gets no chance to flush or say goodbye. */
  public void kill(String name) {
    client().killContainerCmd(containers.get(name).getContainerId()).withSignal("KILL").exec();
  }

  /** Cuts the container off the network: nobody reaches it and it reaches nobody. */
  public void disconnect(String name) {
    client().disconnectFromNetworkCmd().withContainerId(containers.get(name).getContainerId())
        .withNetworkId(network.getId()).withForce(true).exec();
  }

  /** Puts the container back on the network at its own address. */
  public void reconnect(String name) {
    client().connectToNetworkCmd().withContainerId(containers.get(name).getContainerId())
        .withNetworkId(network.getId()).withContainerNetwork(new ContainerNetwork()
            .withIpamConfig(new ContainerNetwork.Ipam().withIpv4Address(addresses.get(name)))
            .withAliases(name)).exec();
  }

  /** Runs a shell command in the container; an error if it fails. */
  public String exec(String name, String script) {
    try {
      ExecResult result = containers.get(name).execInContainer("bash", "-c", script);
      if (result.getExitCode() != 0) {
        throw new IllegalStateException("'" + script + "' in " + name + " exited " + result.getExitCode() + ": "
            + result.getStderr());
      }
      return result.getStdout();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (GenericContainer<?> c : containers.values()) {
      try {
        c.stop();
      } catch (RuntimeException e) {
        // Removing the others matters more; the engine's own clean-up (.ci/docker-engine stop) catches the rest.
      }
    }
    network.close();
  }

  private static DockerClient client() {
    return DockerClientFactory.instance().client();
  }

  private ImageFromDockerfile image() {
    Path tools = repository.resolve("tools/target");
    if (!Files.isRegularFile(tools.resolve("tropos-tools.jar"))) {
      throw new IllegalStateException(tools + "/tropos-tools.jar is missing: package the project first");
    }
    // Kept by the engine (not deleted on exit) so the next run reuses its layers.
    return new ImageFromDockerfile("tropos-it:dev", false)
        .withFileFromPath("Dockerfile", repository.resolve("docker/Dockerfile"))
        .withFileFromPath("bin/tropos", repository.resolve("bin/tropos"))
        .withFileFromPath("docker/tropos-entrypoint", repository.resolve("docker/tropos-entrypoint"))
        .withFileFromPath("tools/target/tropos-tools.jar", tools.resolve("tropos-tools.jar"))
        .withFileFromPath("tools/target/lib", tools.resolve("lib"))
        .withFileFromPath("conf", repository.resolve("conf"))
        .withBuildArg("BASE_IMAGE", BASE_IMAGE);
  }

  private void start(Future<String> image, Path conf, String name, int host, List<String> command) {
    String address = subnetPrefix + host;
    GenericContainer<?> c = new GenericContainer<>(image);
    if (name.equals(SCMS.get(0))) {
      c.withFileSystemBind(scmSecurity.toString(), SCM_SECURITY_DIR, BindMode.READ_WRITE);
    } else {
      c.withFileSystemBind(scmSecurity.toString(), "/scm-security", BindMode.READ_ONLY);
    }
    c
        .withNetwork(network)
        .withNetworkAliases(name)
        .withCreateContainerCmdModifier(cmd -> cmd.withName("tropos-it-" + name + "-" + subnetPrefix.split("\\.")[2])
            .withHostName(name).withIpv4Address(address))
        .withFileSystemBind(conf.toString(), "/opt/tropos/conf", BindMode.READ_ONLY)
        .withEnv("TROPOS_HEAPSIZE", name.startsWith("dn") ? "384m" : "256m")
        .withCommand(command.toArray(String[]::new))
        .withLogConsumer(frame -> log(name, frame));
    containers.put(name, c);
    addresses.put(name, address);
    c.start();
  }

  private void log(String name, OutputFrame frame) {
    try {
      Files.createDirectories(logs);
      Files.writeString(logs.resolve(name + ".log"), frame.getUtf8String(), StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // A lost log line must not fail the suite.
    }
  }

  private void writeConf(Path conf, List<String> racks, Map<String, String> settings) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("ozone.metadata.dirs", "/data/meta");
    all.put("ozone.security.enabled", "true");
    all.putAll(scmService().toKeys());
    all.putAll(omServiceKeys());
    all.put("hdds.datanode.dir", "/data/disk1");
    all.put("hdds.container.ratis.datanode.storage.dir", "/data/ratis1");
    // The datanodes' volumes share the host's disk: a small reserve, so a CI machine's free space is enough.
    all.put("hdds.datanode.volume.min.free.space", "100MB");
    all.put("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    all.put("net.topology.table.file.name", "/opt/tropos/conf/topology.table");
    all.putAll(settings);
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    all.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    xml.append("</configuration>\n");
    List<String> table = new ArrayList<>();
    for (int i = 1; i <= racks.size(); i++) {
      table.add(datanode(i) + " " + racks.get(i - 1));
      table.add(subnetPrefix + (20 + i) + " " + racks.get(i - 1));
    }
    try {
      Files.createDirectories(conf);
      Files.createDirectories(scmSecurity);
      Files.writeString(conf.resolve("ozone-site.xml"), xml);
      Files.write(conf.resolve("topology.table"), table);
      Files.copy(repository.resolve("conf/log4j2.xml"), conf.resolve("log4j2.xml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
