package org.tropos.common.security;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;

/**
 * The memory and cipher a {@link DecryptingSink} or an {@link EncryptingOutputStream} works with, kept for the next
 * one once one finishes: an encrypted GET or PUT of a small object otherwise allocates what it moves twice over,
 * which under a few thousand requests a second is a garbage collector's steady work. At most {@value #KEPT} are
 * kept.
 *
 * <p>Thread-safe to take and give back; each workspace is one stream's at a time.
 */
final class CipherWorkspace {
  /**
   * Stored bytes gathered at once: those a sink decrypts (a reader reads straight into it, {@link
   * DecryptingSink#lend}: a whole small object; for larger pieces the sink grows its own stage once), or the sealed
   * segments an encrypting stream writes on in one piece.
   */
  static final int STAGE_BYTES = 256 * 1024 + SegmentedGcm.STORED_SEGMENT;
  private static final int KEPT = 16;
  private static final ConcurrentLinkedQueue<CipherWorkspace> FREE = new ConcurrentLinkedQueue<>();
  private static final AtomicInteger FREE_COUNT = new AtomicInteger();

  final ByteBuffer stage = ByteBuffer.allocate(STAGE_BYTES);
  final ByteBuffer plain = ByteBuffer.allocate(SegmentedGcm.SEGMENT);
  final Cipher cipher = GcmCiphers.newCipher();

  private CipherWorkspace() {
  }

  /** A kept workspace, or a new one; its buffers cleared. */
  static CipherWorkspace take() {
    CipherWorkspace kept = FREE.poll();
    if (kept == null) {
      return new CipherWorkspace();
    }
    FREE_COUNT.decrementAndGet();
    kept.stage.clear();
    kept.plain.clear();
    return kept;
  }

  /** Keeps this workspace for another stream, unless enough are kept; its taker no longer touches it. */
  void giveBack() {
    if (FREE_COUNT.incrementAndGet() <= KEPT) {
      FREE.offer(this);
    } else {
      FREE_COUNT.decrementAndGet();
    }
  }
}
