package org.tropos.common.security;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;

/**
 * Renews a running daemon's certificate once the renewal window before its expiry is reached
 * ({@code hdds.x509.renew.grace.duration}), checked at start and every {@link #CHECK_PERIOD}. A failed renewal
 * (SCM unreachable, say) keeps the certificate, which is still valid, and is tried again at the next check.
 */
public final class CertificateRenewal implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CertificateRenewal.class);
  static final Duration CHECK_PERIOD = Duration.ofMinutes(10);

  private final String daemon;
  private final ServiceCertificates certificates;
  private final CertificateSigner signer;
  private final Clock clock;
  private ScheduledExecutorService scheduler;

  /** Renewals of the certificates of {@code daemon}, signed by {@code signer}, checked when asked. */
  CertificateRenewal(String daemon, ServiceCertificates certificates, CertificateSigner signer, Clock clock) {
    this.daemon = daemon;
    this.certificates = certificates;
    this.signer = signer;
    this.clock = clock;
  }

  /** Starts checking the certificates of {@code daemon}; {@code signer} signs the renewals. */
  public static CertificateRenewal start(String daemon, ServiceCertificates certificates, CertificateSigner signer,
      Clock clock) {
    CertificateRenewal renewal = new CertificateRenewal(daemon, certificates, signer, clock);
    renewal.scheduler = Threads.scheduler(daemon + "-certificate-renewal");
    Threads.everyPeriod(renewal.scheduler, daemon + ": certificate renewal", Duration.ZERO, CHECK_PERIOD,
        renewal::renewIfDue);
    return renewal;
  }

  /** Renews the certificate if the renewal window is reached; whether it did. */
  boolean renewIfDue() {
    if (!certificates.needsRenewal(clock.wallTime())) {
      return false;
    }
    try {
      ServiceCertificates.Identity renewed = certificates.renew(signer);
      LOG.info("{}: certificate renewed, valid until {}", daemon, renewed.certificate().getNotAfter().toInstant());
      return true;
    } catch (IOException | GeneralSecurityException e) {
      LOG.warn("{}: the certificate expires at {} and could not be renewed yet (tried again in {}): {}", daemon,
          certificates.identity().certificate().getNotAfter().toInstant(), CHECK_PERIOD, e.getMessage());
      return false;
    }
  }

  @Override
  public void close() {
    if (scheduler != null) {
      Threads.shutdown(scheduler, Duration.ofSeconds(5));
    }
  }
}
