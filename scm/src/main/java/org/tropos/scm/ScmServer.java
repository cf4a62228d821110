package org.tropos.scm;

import io.grpc.BindableService;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.http.StatusServer;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.LocalHosts;
import org.tropos.common.net.RackResolver;
import org.tropos.common.net.ScmService;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.GrpcServer;
import org.tropos.common.security.Administration;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateRenewal;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Closer;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.scm.block.DeletedBlockLog;
import org.tropos.scm.console.ScmConsole;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.db.ScmIdentity;
import org.tropos.scm.node.HeardDatanodes;
import org.tropos.scm.ratis.ScmRaftServer;
import org.tropos.scm.replication.ReplicationManager;
import org.tropos.scm.rpc.ScmAdmissions;
import org.tropos.scm.rpc.ScmDatanodeRpc;
import org.tropos.scm.rpc.ScmPeerRpc;
import org.tropos.scm.security.ScmCertificateAuthority;

/**
 * The Storage Container Manager process: its database, its status port, its datanode service and, with SCM HA,
 * its member of the SCMs' Raft group; and the {@link ScmServices} that decide and serve, which a single SCM runs
 * all along and an HA SCM only while it leads its group, caught up (checked every {@value #LEADERSHIP_CHECK_MS}
 * ms). Datanodes heartbeat to every SCM of a service: a follower records what they report and answers with no
 * command, and hands what it heard to its services when it takes over. Clients find the leader by trying each SCM.
 */
public final class ScmServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScmServer.class);
  private static final long LEADERSHIP_CHECK_MS = 200;
  private static final int DATANODE_HANDLER_THREADS = 8;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
  private static final String LOOPBACK = "127.0.0.1";

  private final ScmConfig config;
  private final RackResolver racks;
  private final Clock clock;
  private final Administration administration;
  private final LifeCycle lifeCycle = new LifeCycle("SCM");
  private ScmDb db;
  private ScmRaftServer raft;
  private StatusServer http;
  private final DaemonMetrics metrics = new DaemonMetrics();
  private ScmConsole console;
  private GrpcServer datanodeServer;
  /** What the datanodes told this SCM (HA; null for a single SCM). */
  private HeardDatanodes heard;
  private ScheduledExecutorService leadership;
  private volatile ScmServices services;
  /** How SCM's servers and channels are protected: mutual TLS in a secure cluster. */
  private volatile TransportSecurity transport = TransportSecurity.plaintext();
  /** The cluster's CA, for daemons in this JVM to obtain their certificates from (secure cluster only). */
  private volatile CertificateIssuer issuer;
  /** The cluster's CA as this SCM holds it (secure cluster only). */
  private ScmCertificateAuthority ca;
  private final String bootstrapToken;
  private CertificateRenewal renewal;
  /** The Raft term this SCM serves in (HA). */
  private long servingTerm;

  public ScmServer(ScmConfig config, RackResolver racks, Clock clock) {
    this(config, racks, clock, "");
  }

  /**
   * @param bootstrapToken for an SCM joining a secure HA service that does not hold the cluster's CA yet: a token
   *     for an SCM, from {@code tropos admin cert token --role scm} ({@link ScmServiceJoin}); otherwise unused
   */
  public ScmServer(ScmConfig config, RackResolver racks, Clock clock, String bootstrapToken) {
    this.config = config;
    this.racks = racks;
    this.clock = clock;
    this.bootstrapToken = bootstrapToken;
    this.administration = new Administration(config.administrators(), Callers.localUser(), clock);
  }

  /**
   * Prepares SCM's database without serving ({@code tropos scm --init}): the cluster's identity and, in a secure
   * cluster, its CA (the operator's, {@code hdds.x509.rootca.*}, or a new one), as a first start would make them;
   * an SCM of an HA service as {@link ScmServiceJoin} does (the primordial SCM makes them, another fetches them with
   * its bootstrap token). Nothing that exists is replaced. Returns the cluster id.
   */
  public static String initialize(ScmConfig config, Clock clock, String bootstrapToken) throws IOException {
    try (ScmDb db = ScmDb.open(config.dbDir())) {
      if (config.ha().isPresent() && config.security().enabled()) {
        ScmServiceJoin.prepare(db, config.ha().get(), bootstrapToken);
      }
      ScmIdentity cluster = config.ha().isEmpty() ? ScmIdentity.loadOrCreate(db) : ScmIdentity.load(db)
          .orElseThrow(() -> new IOException("an SCM of an HA service without security takes the cluster's"
              + " identity from its service when it starts: there is nothing to initialize"));
      if (config.security().enabled()) {
        ScmCertificateAuthority.loadOrCreate(db, config.security().dir(), config.security().x509(),
            config.security().suppliedCa(), cluster.clusterId(), clock);
      }
      return cluster.clusterId();
    }
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    try {
      db = ScmDb.open(config.dbDir());
      if (config.ha().isEmpty()) {
        obtainIdentity(true);
      } else if (config.security().enabled()) {
        // The SCMs' Raft group speaks mutual TLS: this SCM needs its certificate before the group runs.
        ScmServiceJoin.prepare(db, config.ha().get(), bootstrapToken);
        obtainIdentity(false);
      }
      http = StatusServer.of("scm-http", config.status(), transport, metrics, this::whyNotReady);
      console = new ScmConsole(this::clientAddresses, () -> transport, config.omHttp(), config.gatewayHttp());
      console.addTo(http);
      // The console shows what SCM's views show: administrators and read-only administrators alone.
      http.viewers(subject -> subject.role() == ServiceRole.USER && administration.reads(subject.name()));
      http.start();
      heard = config.ha().isPresent() ? new HeardDatanodes(clock) : null;
      datanodeServer = new GrpcServer("scm-datanode-rpc", config.datanodeBind(), DATANODE_HANDLER_THREADS,
          datanodePortServices(), metrics.registry());
      startDatanodeServer();
      if (config.ha().isEmpty()) {
        serve();
      } else {
        ScmConfig.Ha ha = config.ha().get();
        raft = new ScmRaftServer(ha.service().id(), ha.service().raftPeers(), ha.self().id(), ha.ratisDir(), db,
            ha.snapshots(), ha.ratisProperties(), transport);
        raft.start();
        db.writeThrough(raft.rowLog());
        leadership = Threads.scheduler("scm-leadership");
        Threads.everyPeriod(leadership, "SCM leadership", Duration.ZERO, Duration.ofMillis(LEADERSHIP_CHECK_MS),
            this::followLeadership);
        LOG.info("SCM {} of HA service {} started: it serves while it leads the service's Raft group (port {})",
            ha.self().id(), ha.service().id(), ha.self().ratisPort());
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    lifeCycle.startEnds();
  }

  /**
   * The datanode port's services: the datanodes' own, and on an SCM of a secure HA service what an SCM joining it
   * fetches ({@link ScmPeerRpc}).
   */
  private List<BindableService> datanodePortServices() throws IOException {
    ScmDatanodeRpc datanodes = new ScmDatanodeRpc(this::datanodeServing, heard, db, racks);
    if (ca == null || config.ha().isEmpty()) {
      return List.of(datanodes);
    }
    return List.of(datanodes, new ScmPeerRpc(ScmIdentity.load(db).orElseThrow(), ca));
  }

  /**
   * Starts serving once leading and caught up; stops when no longer leading in the term it started in (a term
   * lost and won again may have seen another leader's changes: its managers start afresh from the database).
   */
  private void followLeadership() {
    boolean leads;
    boolean caughtUp;
    long term;
    try {
      term = raft.member().currentTerm();
      leads = raft.member().isLeader();
      // Checked only to start: a serving leader is briefly behind whenever an entry is committed, not yet applied.
      caughtUp = leads && services == null && raft.member().isCaughtUpLeader();
    } catch (IOException e) {
      term = -1;
      leads = false;
      caughtUp = false;
    }
    String self = config.ha().orElseThrow().self().id();
    if (services != null && (!leads || term != servingTerm)) {
      LOG.info("SCM {} no longer leads its service in term {}: it stops serving", self, servingTerm);
      ScmServices stopping = services;
      services = null;
      stopping.close();
    } else if (caughtUp) {
      LOG.info("SCM {} leads its service in term {}: starting to serve", self, term);
      try {
        serve();
        servingTerm = term;
      } catch (IOException | RuntimeException e) {
        LOG.error("SCM could not start serving as the leader; trying again", e);
      }
    }
  }

  private ScmDatanodeRpc.Serving datanodeServing() {
    ScmServices current = services;
    return current == null ? null : current.datanodeServing();
  }

  /**
   * In a secure cluster, SCM's own certificate, which it signs in process with the cluster's CA (kept in its
   * database: every SCM of an HA service holds the same, {@link ScmServiceJoin}). With {@code mayCreate} (a single
   * SCM) the cluster's identity and CA are made if there are none yet.
   */
  private void obtainIdentity(boolean mayCreate) throws IOException {
    if (!config.security().enabled()) {
      return;
    }
    ScmIdentity cluster = mayCreate ? ScmIdentity.loadOrCreate(db) : ScmIdentity.load(db).orElseThrow(
        () -> new IOException("SCM's database holds no cluster identity"));
    ca = ScmCertificateAuthority.loadOrCreate(db, config.security().dir(), config.security().x509(),
        config.security().suppliedCa(), cluster.clusterId(), clock);
    CertificateIssuer own = ca.inProcess();
    TransportSecurity mutual = config.security().transport(ServiceRole.SCM, LocalHosts.name(), own);
    renewal = mutual.certificates().map(c -> CertificateRenewal.start("scm", c, own, clock)).orElse(null);
    issuer = own;
    transport = mutual;
  }

  /** The datanode port: with mutual TLS admitting only datanodes (and joining SCMs) in a secure cluster. */
  private void startDatanodeServer() throws IOException {
    transport.subject().ifPresent(self -> datanodeServer.secured(transport, ScmAdmissions.datanodePort(
        self.clusterId())));
    datanodeServer.start();
  }

  private void serve() throws IOException {
    ScmServices starting = new ScmServices(config, racks, clock, db, heard, metrics.registry(), transport,
        administration);
    starting.start();
    services = starting;
  }

  /** Where SCM writes the cluster's CA certificate for clients to trust (once it has its identity). */
  public Path caFile() {
    return config.security().dir().resolve(ScmCertificateAuthority.CA_FILE);
  }

  /** The cluster's CA as daemons started in this JVM reach it; empty unless the cluster runs secure. */
  public Optional<CertificateIssuer> certificateIssuer() {
    return Optional.ofNullable(issuer);
  }

  /** Whether this SCM serves now: always for a single SCM, while it leads for an HA one. */
  public boolean serving() {
    return services != null;
  }

  private Optional<String> whyNotReady() {
    return services != null ? Optional.empty()
        : Optional.of("not the leader of its HA service (or not yet caught up): it does not serve");
  }

  /** Where the console asks SCM's admin service: this SCM's own, or every SCM's of the HA service. */
  private List<HostPort> clientAddresses() {
    return config.ha().map(ha -> ha.service().nodes().stream().map(ScmService.Node::client).toList())
        .orElseGet(() -> List.of(new HostPort(LOOPBACK, clientPort())));
  }

  private <T> T fromServices(String what, Function<ScmServices, T> get) {
    ScmServices current = services;
    if (current == null) {
      throw new IllegalStateException("SCM does not serve (not the leader of its service): no " + what);
    }
    return get.apply(current);
  }

  /** The datanode service's port, open on every SCM of an HA service. */
  public int datanodePort() {
    return datanodeServer.port();
  }

  public int clientPort() {
    return fromServices("client port", ScmServices::clientPort);
  }

  public int httpPort() {
    return http.port();
  }

  /** The HTTPS status port, where the web console is served in a secure cluster. */
  public Optional<Integer> httpsPort() {
    return http.httpsPort();
  }

  public int blockPort() {
    return fromServices("block port", ScmServices::blockPort);
  }

  public ContainerManager containerManager() {
    return fromServices("container manager", ScmServices::containerManager);
  }

  public ReplicationManager replicationManager() {
    return fromServices("replication manager", ScmServices::replicationManager);
  }

  public DeletedBlockLog deletedBlockLog() {
    return fromServices("deleted-block log", ScmServices::deletedBlockLog);
  }

  public ScmIdentity identity() {
    return fromServices("identity", ScmServices::identity);
  }

  /** How many datanodes registered with this SCM of an HA service since it started, leading or following. */
  public int datanodesHeard() {
    return heard == null ? 0 : heard.size();
  }

  /** The HA service's Raft member, or null for a single SCM. */
  public ScmRaftServer raft() {
    return raft;
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    Closer.closeAll("SCM", leadership == null ? null : () -> Threads.shutdown(leadership, STOP_TIMEOUT),
        renewal, http, console, services, datanodeServer, raft, db, metrics);
    services = null;
    lifeCycle.closeEnds();
    LOG.info("SCM stopped");
  }
}
