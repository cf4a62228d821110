package org.tropos.common.http;

import java.util.Optional;

/** Whether a daemon can serve now ({@code /ready}), as opposed to merely running ({@code /health}). */
@FunctionalInterface
public interface Readiness {
  /** Empty when the daemon can serve; else why not, for the operator. */
  Optional<String> whyNotReady();
}
