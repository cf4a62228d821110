package org.tropos.om.occ;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The client call a thread is serving, for OM HA's retry cache: its id (the same on every attempt of the call)
 * and how many transactions it has run, so that the n-th transaction of a call sent again finds the record of the
 * n-th transaction of its first attempt. Opened by the RPC layer around each call; absent for background work.
 *
 * <p>Thread-confined: one per serving thread.
 */
public final class CallScope implements AutoCloseable {
  private static final ThreadLocal<CallScope> CURRENT = new ThreadLocal<>();
  private static final long MINUTE_MS = 60_000;

  private final byte[] prefix;
  private int transactions;

  private CallScope(byte[] prefix) {
    this.prefix = prefix;
  }

  /**
   * Serves call {@code callId} ({@code <client>:<start ms>:<sequence>}) on this thread until closed; a call
   * without a well-formed id gets no scope (its transactions are not recorded).
   */
  public static CallScope open(String callId) {
    String[] parts = callId.split(":");
    long startMs;
    try {
      startMs = parts.length == 3 ? Long.parseLong(parts[1]) : -1;
    } catch (NumberFormatException e) {
      startMs = -1;
    }
    if (startMs < 0) {
      return null;
    }
    byte[] id = callId.getBytes(StandardCharsets.UTF_8);
    CallScope scope = new CallScope(ByteBuffer.allocate(8 + id.length + 1).putLong(startMs / MINUTE_MS).put(id)
        .put((byte) 0).array());
    CURRENT.set(scope);
    return scope;
  }

  /** The retry-cache key of the next transaction of the current call, or null outside a call. */
  static byte[] nextTransactionKey() {
    CallScope scope = CURRENT.get();
    if (scope == null) {
      return null;
    }
    return ByteBuffer.allocate(scope.prefix.length + 4).put(scope.prefix).putInt(scope.transactions++).array();
  }

  /** The first key of calls that started at or after {@code wallMs}: purges delete every key before it. */
  static byte[] firstKeyFrom(long wallMs) {
    return ByteBuffer.allocate(8).putLong(wallMs / MINUTE_MS).array();
  }

  @Override
  public void close() {
    CURRENT.remove();
  }
}
