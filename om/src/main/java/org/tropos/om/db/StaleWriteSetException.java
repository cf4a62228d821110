package org.tropos.om.db;

import java.io.IOException;

/**
 * A write set that does not follow the transaction the namespace is at: it was validated against a state that
 * has moved on since (another OM's batch was applied first). Nothing changed; its transactions are to be re-run.
 */
public final class StaleWriteSetException extends IOException {
  private static final long serialVersionUID = 1L;

  public StaleWriteSetException(String message) {
    super(message);
  }
}
