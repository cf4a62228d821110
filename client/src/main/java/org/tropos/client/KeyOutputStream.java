package org.tropos.client;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;

/**
 * A key being written ({@link TroposClient#createKey}): {@link #close} commits it, and only then does it become
 * visible, atomically, with exactly the bytes written. After a failed write the key is not committed.
 *
 * <p>Not thread-safe: one writer.
 */
public abstract class KeyOutputStream extends OutputStream {
  protected KeyOutputStream() {
  }

  /** Commits what was written: the key becomes visible with exactly these bytes. */
  @Override
  public abstract void close() throws IOException;

  /**
   * Makes everything written so far durable on every replica and visible to readers; the stream stays open, and
   * its next hsync, and its close, commit the key again, larger.
   */
  public abstract void hsync() throws IOException;

  /** Metadata known only once the data is written (an S3 ETag): stored with the key at {@link #close}. */
  public abstract void setCommitMetadata(Map<String, String> metadata);

  /**
   * Ends the write without committing: the key stays as it was. For a writer whose source turns out to be bad,
   * such as an S3 upload whose checksum does not match.
   */
  public abstract void abort();

  /** The committed key, after {@link #close}; null before. */
  public abstract KeyInfo committedKey();

  /** Whether the key is opened only with its commit ({@link TroposClient#createSmallKey}) and not yet opened. */
  public abstract boolean opensWithCommit();

  /**
   * Commits again, opened as {@code request} says, a key to be opened with its commit whose {@link #close} failed
   * in the OM (its bucket had changed since the request was made): the bytes stay where they were written.
   */
  public abstract void commitAs(OpenKeyRequest request) throws IOException;
}
