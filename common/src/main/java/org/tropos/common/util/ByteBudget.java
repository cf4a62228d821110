package org.tropos.common.util;

import java.io.InterruptedIOException;
import java.lang.ref.Cleaner;

/**
 * Bytes that many holders together may keep, such as the chunks a process's writers keep until every replica
 * has committed them (for a resend): sixteen writers of 4 MB chunks hold over 300 MB, and a process that accepts
 * writers without a bound (an S3 gateway) runs out of heap. Each holder takes from a {@link Share}; a holder that
 * finds the budget spent gives back what it can (a writer commits) and waits for room.
 *
 * <p>A share is given back when its holder closes it, and also when the holder is collected without closing it, so
 * a leaked stream cannot shrink the budget for good. A request larger than the whole budget is granted when nothing
 * else is held, so every holder makes progress.
 *
 * <p>Thread-safe: shares of many holders take and give concurrently.
 */
public final class ByteBudget {
  private static final Cleaner CLEANER = Cleaner.create();

  private final long limit;
  private long held;

  /** @param limit the bytes all shares together may hold */
  public ByteBudget(long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("a byte budget must be positive: " + limit);
    }
    this.limit = limit;
  }

  public long limit() {
    return limit;
  }

  /** The bytes held now by every share. */
  public synchronized long held() {
    return held;
  }

  /** A new share for {@code holder}, given back in full when the holder is collected unclosed. */
  public Share share(Object holder) {
    Share share = new Share();
    CLEANER.register(holder, share::close);
    return share;
  }

  private synchronized boolean tryTake(long bytes) {
    if (held > 0 && held + bytes > limit) {
      return false;
    }
    held += bytes;
    return true;
  }

  private synchronized void take(long bytes) throws InterruptedIOException {
    while (held > 0 && held + bytes > limit) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for room in a byte budget");
      }
    }
    held += bytes;
  }

  private synchronized void give(long bytes) {
    held -= bytes;
    notifyAll();
  }

  /**
   * One holder's part of the budget. Must not refer to its holder: the cleaner that gives it back runs only once
   * the holder is unreachable.
   *
   * <p>Used by its holder's thread; {@link #close} may also run on the cleaner's thread.
   */
  public final class Share {
    private long bytes;

    private Share() {
    }

    /** Takes {@code n} bytes if there is room now. */
    public synchronized boolean tryTake(long n) {
      if (!ByteBudget.this.tryTake(n)) {
        return false;
      }
      bytes += n;
      return true;
    }

    /** Takes {@code n} bytes, waiting for room; when the caller holds nothing it could give back first. */
    public void take(long n) throws InterruptedIOException {
      ByteBudget.this.take(n);
      synchronized (this) {
        bytes += n;
      }
    }

    /** Gives back {@code n} of the bytes this share holds. */
    public synchronized void give(long n) {
      long given = Math.min(n, bytes);
      bytes -= given;
      ByteBudget.this.give(given);
    }

    /** Gives back everything this share holds. */
    public synchronized void close() {
      give(bytes);
    }
  }
}
