package org.tropos.om;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.audit.AuditLog;
import org.tropos.common.http.JsonRoute;
import org.tropos.common.http.StatusServer;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.LocalHosts;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.GrpcServer;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmSealingKeyClient;
import org.tropos.common.rpc.ScmSecretKeyClient;
import org.tropos.common.rpc.ShedUnderPressure;
import org.tropos.common.security.Administration;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateRenewal;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.SpnegoInitiator;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Closer;
import org.tropos.common.util.HeapPressure;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.common.util.VersionInfo;
import org.tropos.om.db.OmDb;
import org.tropos.om.kms.HadoopKms;
import org.tropos.om.namespace.DataKeys;
import org.tropos.om.namespace.DirectoryPurger;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.namespace.S3SecretSealing;
import org.tropos.om.occ.Committer;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.occ.OccMetrics;
import org.tropos.om.occ.OccRunner;
import org.tropos.om.ratis.OmHaConfig;
import org.tropos.om.ratis.OmRaftServer;
import org.tropos.om.ratis.RatisBatchLog;
import org.tropos.om.rpc.Administrators;
import org.tropos.om.rpc.Leadership;
import org.tropos.om.rpc.OmRpc;
import org.tropos.om.scm.DeletedKeyHandoff;
import org.tropos.om.scm.ScmBlocks;
import org.tropos.om.token.DelegationTokens;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.S3IdentityServiceGrpc;

/**
 * The Ozone Manager process: builds its components, starts them, stops them in reverse order. It holds no logic
 * of its own and is never handed to a component.
 */
public final class OmServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OmServer.class);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
  /** How long a call's answer is kept for a retry: well beyond a client's failover budget and call timeout. */
  private static final Duration CALL_RECORDS_KEPT = Duration.ofMinutes(10);

  private final OmConfig config;
  private final Clock clock;
  private final CertificateIssuer issuer;
  private final DaemonMetrics daemonMetrics = new DaemonMetrics();
  private final OccMetrics metrics = new OccMetrics(daemonMetrics.registry());
  private final LifeCycle lifeCycle = new LifeCycle("OM");
  private OmDb db;
  private Committer committer;
  private OccRunner runner;
  private Namespace namespace;
  private ScmBlocks scm;
  private GrpcServer server;
  private StatusServer http;
  private ScheduledExecutorService background;
  private OmRaftServer raft;
  private Leadership leadership;
  private CertificateRenewal renewal;
  private ScmSecretKeyClient secretKeys;
  private ScmSealingKeyClient sealingKey;

  /** An OM that, in a secure cluster, must have its certificate already (or fails to start saying so). */
  public OmServer(OmConfig config, Clock clock) {
    this(config, clock, CertificateIssuer.none("the OM has no certificate in " + config.security().dir()
        + ": start it once with a bootstrap token (tropos admin cert token --role om)"));
  }

  /** @param issuer where the OM gets its first certificate in a secure cluster */
  public OmServer(OmConfig config, Clock clock, CertificateIssuer issuer) {
    this.config = config;
    this.clock = clock;
    this.issuer = issuer;
  }

  /** S3 secrets sealed with SCM's key in a secure cluster, else in plaintext. */
  private S3SecretSealing sealing(TransportSecurity transport) {
    if (!config.security().enabled()) {
      return S3SecretSealing.plaintext();
    }
    sealingKey = new ScmSealingKeyClient(config.security().scm(), transport);
    return S3SecretSealing.sealedWith(sealingKey::key);
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    try {
      String host = config.ha().map(ha -> ha.self().rpc().host()).orElse(LocalHosts.name());
      TransportSecurity transport = config.security().transport(ServiceRole.OM, host, issuer);
      renewal = ScmCertificateClient.renewal("om", config.security().scm(), transport, clock).orElse(null);
      if (config.security().enabled()) {
        secretKeys = ScmSecretKeyClient.start("om", config.security().scm(), transport,
            config.security().blockTokens().checkEvery(), clock);
      }
      db = OmDb.open(config.dbDir());
      ObjectIds ids;
      if (config.ha().isPresent()) {
        OmHaConfig ha = config.ha().get();
        ids = ObjectIds.replicated(db);
        raft = new OmRaftServer(ha, db, transport);
        raft.start();
        committer = new Committer("om", db, new RatisBatchLog(raft.submitter()), config.commitBatchMax(), metrics);
        leadership = raft.leadership(ids, metrics::followerRead);
      } else {
        ids = new ObjectIds(db);
        committer = new Committer("om", db, config.commitBatchMax(), metrics);
        leadership = Leadership.SINGLE;
      }
      committer.start();
      runner = new OccRunner(db, ids, committer, clock, config.maxConflictRetries(), metrics, config.ha().isPresent());
      S3SecretSealing sealing = sealing(transport);
      namespace = new Namespace(runner, config.bucketDefaults(), sealing,
          sealingKey == null ? DataKeys.none() : DataKeys.wrappedWith(sealingKey::key));
      DelegationTokens tokens = secretKeys == null ? DelegationTokens.off() : DelegationTokens.signedWith(
          secretKeys, runner, config.tokens().renewInterval(), config.tokens().maxLifetime(), clock);
      scm = new ScmBlocks(config.scmBlockAddresses(), transport, clock, config.containerLocationTtl(),
          config.containerLocationsKept());
      DirectoryPurger purger = new DirectoryPurger(runner);
      DeletedKeyHandoff handoff = new DeletedKeyHandoff(namespace, scm);
      background = Threads.scheduler("om-background");
      Threads.everyPeriod(background, "Purge of deleted directories and hand-over of deleted blocks",
          config.directoryPurgeInterval(), config.directoryPurgeInterval(), () -> {
            // Background changes are the leader's to make: a follower's would be refused anyway.
            if (leadership.leads()) {
              purge(purger, handoff, tokens);
              forgetOldCalls();
            }
          });
      startRpc(host, transport, tokens);
      OmSummaries summaries = new OmSummaries(db, metrics, this::serving);
      summaries.register(daemonMetrics.registry());
      http = StatusServer.of("om-http", config.status(), transport, daemonMetrics, this::whyNotReady)
          .json("/api/summary", (rest, query) -> JsonRoute.json(summaries.summary()))
          .link("Cluster console (SCM)", "http://" + config.scmConsole() + "/");
      http.start();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    lifeCycle.startEnds();
    LOG.info("OM started (version {}): client service on port {}, database {}, SCM block service at {}{}",
        VersionInfo.version(), port(), config.dbDir(), config.scmBlockAddresses(), config.ha().map(ha -> ", node "
            + ha.self().id() + " of HA service " + ha.service().id() + " (Raft log " + ha.ratisDir() + ")")
            .orElse(""));
  }

  /** The KMS of SSE-KMS, called with the OM's Kerberos principal when it has one and the KMS asks for it. */
  private Optional<HadoopKms> kms(String host) {
    return config.kms().map(kms -> config.kerberos().map(login -> kms.authenticatingAs(SpnegoInitiator.of(login,
        host))).orElse(kms));
  }

  /**
   * The client service; in a secure cluster, users proven by Kerberos or delegation tokens besides certificates, and
   * the S3 users of the gateway's calls by their requests' signatures.
   */
  private void startRpc(String host, TransportSecurity transport, DelegationTokens tokens) throws IOException {
    BlockTokens blockTokens = secretKeys == null ? BlockTokens.off() : BlockTokens.signedWith(secretKeys,
        config.security().blockTokens().tokenLifetime(), clock);
    OmRpc om = new OmRpc(namespace, scm, config.blockSize(), new Administrators(new Administration(
        config.administrators(), Callers.localUser(), clock)), leadership, Optional.ofNullable(secretKeys),
        blockTokens, tokens,
        config.access().settings(), kms(host));
    server = new GrpcServer("om-rpc", config.bind(), config.handlerThreads(),
        List.of(om, om.identityService()),
        daemonMetrics.registry()).admitting(new ShedUnderPressure(daemonMetrics.registry(), HeapPressure.jvm(),
        OmResult.OM_BUSY, Set.of(
            OmServiceGrpc.getOpenKeyMethod().getFullMethodName(),
            OmServiceGrpc.getAllocateBlockMethod().getFullMethodName(),
            OmServiceGrpc.getLeaseBlocksMethod().getFullMethodName(),
            OmServiceGrpc.getInitiateMultipartUploadMethod().getFullMethodName())));
    transport.subject().ifPresent(self -> server.secured(transport, OmRpc.admission(self.clusterId())));
    // Every call but GetOmRole, a probe of the OM's role (gateways ask every few seconds) that reads nothing.
    String probe = OmServiceGrpc.getGetOmRoleMethod().getFullMethodName();
    server.auditing(AuditLog.of("om"), method -> (method.startsWith(OmServiceGrpc.SERVICE_NAME + "/")
        || method.startsWith(S3IdentityServiceGrpc.SERVICE_NAME + "/")) && !method.equals(probe), OmResult::forNumber);
    if (config.security().enabled()) {
      server.authenticatingUsers(config.kerberos().isEmpty() ? tokens
          : config.kerberos().get().acceptor(host).or(tokens))
          .authenticatingS3Requests(OmRpc.s3RequestAuthenticator(namespace, clock));
    }
    server.start();
  }

  /** Empties deleted directories, hands the blocks of every deleted key to SCM, forgets expired tokens. */
  private static void purge(DirectoryPurger purger, DeletedKeyHandoff handoff, DelegationTokens tokens) {
    try {
      long expired = tokens.purgeExpired();
      if (expired > 0) {
        LOG.info("OM: forgot {} expired delegation tokens", expired);
      }
      long removed = purger.purgeAll();
      if (removed > 0) {
        LOG.info("OM: purged {} entries of deleted directories", removed);
      }
      long handed = handoff.handOverAll();
      if (handed > 0) {
        LOG.info("OM: handed the blocks of {} deleted keys to SCM", handed);
      }
    } catch (OmException e) {
      LOG.warn("OM: background purge failed, will retry: {}", e.getMessage());
    }
  }

  /** Purges the retry cache's records of calls older than the clients' retry window (HA only). */
  private void forgetOldCalls() {
    if (config.ha().isEmpty()) {
      return;
    }
    try {
      long removed = runner.purgeCallRecords(clock.wallTime().minus(CALL_RECORDS_KEPT).toEpochMilli());
      if (removed > 0) {
        LOG.debug("OM: purged {} records of retried-call answers", removed);
      }
    } catch (OmException e) {
      LOG.warn("OM: purge of the retry cache failed, will retry: {}", e.getMessage());
    }
  }

  /**
   * Whether this OM serves clients now: always for a single OM; with HA, as the caught-up leader (asking starts
   * its term, as a client's first call does).
   */
  public boolean serving() {
    try {
      leadership.require();
      return true;
    } catch (OmException e) {
      return false;
    }
  }

  private Optional<String> whyNotReady() {
    return serving() ? Optional.empty() : Optional.of("not the leader of its HA service (or not yet caught up)");
  }

  public int port() {
    return server.port();
  }

  /** The status port (/prom, /health). */
  public int httpPort() {
    return http.port();
  }

  /** The HTTPS status port, when ozone.http.policy opens one (a secure cluster does by default). */
  public Optional<Integer> httpsPort() {
    return http.httpsPort();
  }

  public OccMetrics metrics() {
    return metrics;
  }

  /** The request path without gRPC, for in-process measurements and checks. */
  public OccRunner runner() {
    return runner;
  }

  /** The namespace operations without gRPC, for in-process measurements. */
  public Namespace namespace() {
    return namespace;
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    Closer.closeAll("OM", renewal, http, server, secretKeys, sealingKey,
        background == null ? null : () -> Threads.shutdown(background, STOP_TIMEOUT), scm, committer, raft, db,
        daemonMetrics);
    lifeCycle.closeEnds();
    LOG.info("OM stopped");
  }
}
