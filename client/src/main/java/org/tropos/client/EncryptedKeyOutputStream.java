package org.tropos.client;

import java.io.IOException;
import java.util.Map;
import org.tropos.common.security.EncryptingOutputStream;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;

/**
 * A key written encrypted at rest: what it is given is encrypted under the key's data key
 * ({@link EncryptingOutputStream}) on its way to the key's blocks, so the datanodes store only ciphertext. The data
 * key stays in this stream's memory. An hsync cannot make a segment being filled durable without sealing it early,
 * which the format does not allow, so it is refused.
 *
 * <p>Not thread-safe: one writer.
 */
final class EncryptedKeyOutputStream extends KeyOutputStream {
  private final KeyOutputStream stored;
  private final EncryptingOutputStream encrypting;
  private final EncryptionKind kind;
  private final byte[] dataKey;

  /** @param stored the key's stream of stored (encrypted) bytes */
  public EncryptedKeyOutputStream(KeyOutputStream stored, EncryptionKind kind, byte[] dataKey) throws IOException {
    this.stored = stored;
    this.kind = kind;
    this.dataKey = dataKey.clone();
    this.encrypting = new EncryptingOutputStream(stored, dataKey);
  }

  @Override
  public void write(int b) throws IOException {
    encrypting.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    encrypting.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    encrypting.flush();
  }

  /** Seals the last segment and commits the key. */
  @Override
  public void close() throws IOException {
    encrypting.close();
  }

  @Override
  public void hsync() throws IOException {
    throw new IOException("an encrypted key cannot be synced before it is closed: its last segment is sealed only"
        + " at close");
  }

  @Override
  public void setCommitMetadata(Map<String, String> metadata) {
    stored.setCommitMetadata(metadata);
  }

  @Override
  public void abort() {
    stored.abort();
  }

  @Override
  public KeyInfo committedKey() {
    return stored.committedKey();
  }

  @Override
  public boolean opensWithCommit() {
    return stored.opensWithCommit();
  }

  /** Commits again as {@code request} says, still as written: under this stream's key. */
  @Override
  public void commitAs(OpenKeyRequest request) throws IOException {
    stored.commitAs(KeyEncryption.writtenUnder(request, kind, dataKey));
  }
}
