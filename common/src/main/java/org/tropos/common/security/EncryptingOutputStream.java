package org.tropos.common.security;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

/**
 * Writes what it is given as an encrypted stream ({@link SegmentedGcm}, format 1) to another stream: the random
 * prefix first, then the segments, each sealed once the next byte shows it is not the last (straight from the
 * caller's array when one write holds it whole) and written on a few at a time; closing seals the last segment
 * (empty for an empty stream), writes what is left and closes the stream below. Its length need not be known
 * before. Its memory and cipher come from a {@link CipherWorkspace} and go back at close, so writing a small object
 * allocates nothing that lasts.
 *
 * <p>Not thread-safe.
 */
public final class EncryptingOutputStream extends OutputStream {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final OutputStream out;
  private final SegmentedGcm.Segments segments;
  private CipherWorkspace workspace = CipherWorkspace.take();
  private long index;

  public EncryptingOutputStream(OutputStream out, byte[] dataKey) throws IOException {
    byte[] prefix = new byte[SegmentedGcm.PREFIX_BYTES];
    RANDOM.nextBytes(prefix);
    this.out = out;
    this.segments = new SegmentedGcm.Segments(dataKey, prefix, workspace.cipher);
    workspace.stage.put(prefix);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (workspace == null) {
      throw new IOException("the encrypted stream is closed");
    }
    ByteBuffer plain = workspace.plain;
    while (len > 0) {
      if (!plain.hasRemaining()) {
        seal(plain.flip(), false);
        plain.clear();
      }
      if (plain.position() == 0 && len > SegmentedGcm.SEGMENT) {
        // A whole segment with bytes after it, so not the last: sealed where it lies, not copied first.
        seal(ByteBuffer.wrap(b, off, SegmentedGcm.SEGMENT), false);
        off += SegmentedGcm.SEGMENT;
        len -= SegmentedGcm.SEGMENT;
      } else {
        int n = Math.min(len, plain.remaining());
        plain.put(b, off, n);
        off += n;
        len -= n;
      }
    }
  }

  /** Writes on the segments sealed so far and flushes; the one being filled is sealed when full or at close. */
  @Override
  public void flush() throws IOException {
    if (workspace != null) {
      writeStage();
    }
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (workspace != null) {
      try {
        seal(workspace.plain.flip(), true);
        writeStage();
      } finally {
        workspace.giveBack();
        workspace = null;
        out.close();
      }
    }
  }

  /** Seals the next segment, {@code plain}, into the stage, writing the stage on first if it has no room. */
  private void seal(ByteBuffer plain, boolean last) throws IOException {
    ByteBuffer stage = workspace.stage;
    if (stage.remaining() < SegmentedGcm.STORED_SEGMENT) {
      writeStage();
    }
    try {
      segments.encrypt(index++, last, plain, stage);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot encrypt segment " + (index - 1), e);
    }
  }

  private void writeStage() throws IOException {
    ByteBuffer stage = workspace.stage;
    out.write(stage.array(), 0, stage.position());
    stage.clear();
  }
}
