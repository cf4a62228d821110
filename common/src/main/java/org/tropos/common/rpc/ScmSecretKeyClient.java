package org.tropos.common.rpc;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.SecretKeyRing;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;
import org.tropos.proto.scm.GetSecretKeysRequest;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;

/**
 * The block-token keys of an OM or datanode, fetched from SCM over mutual TLS (only their certificates are
 * admitted) and again every check period, so a key SCM made is known within that period. A token signed with a
 * key not known yet makes the ring ask SCM at once, at most every {@link #MISS_REFRESH} (a forged key id must not
 * turn every request into a call to SCM).
 */
public final class ScmSecretKeyClient implements SecretKeyRing, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScmSecretKeyClient.class);
  private static final Duration MISS_REFRESH = Duration.ofSeconds(10);

  private final ScmChannel scm;
  private final Clock clock;
  private final ScheduledExecutorService refresher;
  /** Newest first. */
  private volatile List<SecretKey> keys = List.of();
  private long fetchedAtMillis;
  private boolean fetched;

  private ScmSecretKeyClient(ScmChannel scm, Clock clock, String daemon, Duration every) {
    this.scm = scm;
    this.clock = clock;
    this.refresher = Threads.scheduler(daemon + "-secret-keys");
    Threads.everyPeriod(refresher, "Fetching the block-token keys", Duration.ZERO, every, this::fetchQuietly);
  }

  /** Keys fetched from SCM's client service at {@code scm} as the daemon {@code transport} makes this process. */
  public static ScmSecretKeyClient start(String daemon, List<HostPort> scm, TransportSecurity transport,
      Duration every, Clock clock) {
    return new ScmSecretKeyClient(new ScmChannel(scm, transport), clock, daemon, every);
  }

  /**
   * The block tokens of an OM or datanode: signed and verified with keys fetched as {@code transport} makes this
   * process (the ring is handed to {@code closeWith}), or off when the cluster is not secure.
   */
  public static BlockTokens blockTokens(String daemon, SecuritySettings security, TransportSecurity transport,
      Clock clock, Consumer<AutoCloseable> closeWith) {
    if (!security.enabled()) {
      return BlockTokens.off();
    }
    ScmSecretKeyClient keys = start(daemon, security.scm(), transport, security.blockTokens().checkEvery(), clock);
    closeWith.accept(keys);
    return BlockTokens.signedWith(keys, security.blockTokens().tokenLifetime(), clock);
  }

  @Override
  public SecretKey current() throws IOException {
    Instant now = clock.wallTime();
    Optional<SecretKey> newest = newestValid(now);
    if (newest.isEmpty()) {
      fetch();
      newest = newestValid(now);
    }
    return newest.orElseThrow(() -> new IOException("SCM has no secret key to sign block tokens with"));
  }

  private Optional<SecretKey> newestValid(Instant now) {
    return keys.stream().filter(k -> !k.expiredAt(now) && !k.created().isAfter(now)).findFirst();
  }

  @Override
  public Optional<SecretKey> find(UUID id) throws IOException {
    Optional<SecretKey> known = known(id);
    if (known.isEmpty() && mayFetchForMiss()) {
      fetch();
      known = known(id);
    }
    return known.filter(k -> !k.expiredAt(clock.wallTime()));
  }

  private Optional<SecretKey> known(UUID id) {
    return keys.stream().filter(k -> k.id().equals(id)).findFirst();
  }

  private synchronized boolean mayFetchForMiss() {
    return !fetched || clock.monotonicMillis() - fetchedAtMillis >= MISS_REFRESH.toMillis();
  }

  private void fetchQuietly() {
    try {
      fetch();
    } catch (IOException e) {
      LOG.warn("Cannot fetch the block-token keys from SCM (trying again later): {}", e.getMessage());
    }
  }

  private synchronized void fetch() throws IOException {
    fetched = true;
    fetchedAtMillis = clock.monotonicMillis();
    try {
      keys = scm.call(() -> scm.stub(ScmSecurityServiceGrpc::newBlockingStub)
          .getSecretKeys(GetSecretKeysRequest.getDefaultInstance())).getKeysList().stream().map(SecretKey::of)
          .toList();
    } catch (ScmException e) {
      throw new IOException("cannot fetch the block-token keys from SCM: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    Threads.shutdown(refresher, Duration.ofSeconds(5));
    scm.close();
  }
}
