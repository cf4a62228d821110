package org.tropos.common.security;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;

/**
 * The memory and cipher a {@link DecryptingSink} works with, kept for the next sink once one finishes: an encrypted
 * GET of a small object otherwise allocates what it reads twice over, which under a few thousand GETs a second is
 * a garbage collector's steady work. At most {@value #KEPT} are kept.
 *
 * <p>Thread-safe to take and give back; each workspace is one sink's at a time.
 */
final class SinkWorkspace {
  /**
   * Stored bytes a sink gathers before it decrypts them: a reader may read up to this much (less a segment still
   * incomplete) straight into it ({@link DecryptingSink#lend}), a whole small object; larger pieces are copied in.
   */
  static final int STAGE_BYTES = 256 * 1024 + SegmentedGcm.STORED_SEGMENT;
  private static final int KEPT = 16;
  private static final ConcurrentLinkedQueue<SinkWorkspace> FREE = new ConcurrentLinkedQueue<>();
  private static final AtomicInteger FREE_COUNT = new AtomicInteger();

  final ByteBuffer stage = ByteBuffer.allocate(STAGE_BYTES);
  final ByteBuffer plain = ByteBuffer.allocate(SegmentedGcm.SEGMENT);
  final Cipher cipher = SegmentedGcm.newCipher();

  private SinkWorkspace() {
  }

  /** A kept workspace, or a new one; its buffers cleared. */
  static SinkWorkspace take() {
    SinkWorkspace kept = FREE.poll();
    if (kept == null) {
      return new SinkWorkspace();
    }
    FREE_COUNT.decrementAndGet();
    kept.stage.clear();
    kept.plain.clear();
    return kept;
  }

  /** Keeps this workspace for another sink, unless enough are kept; its taker no longer touches it. */
  void giveBack() {
    if (FREE_COUNT.incrementAndGet() <= KEPT) {
      FREE.offer(this);
    } else {
      FREE_COUNT.decrementAndGet();
    }
  }
}
