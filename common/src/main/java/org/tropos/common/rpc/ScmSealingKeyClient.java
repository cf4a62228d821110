package org.tropos.common.rpc;

import java.io.IOException;
import java.util.List;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.SealingKey;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.scm.GetSealingKeyRequest;
import org.tropos.proto.scm.GetSealingKeyResponse;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;

/**
 * The OMs' sealing key, fetched from SCM over mutual TLS (only an OM's certificate is admitted) when first needed
 * and kept in memory only: it never changes, and the OM's disk never holds it.
 *
 * <p>Thread-safe.
 */
public final class ScmSealingKeyClient implements AutoCloseable {
  private final ScmChannel scm;
  private volatile SealingKey key;

  public ScmSealingKeyClient(List<HostPort> scm, TransportSecurity transport) {
    this.scm = new ScmChannel(scm, transport);
  }

  /** The key; fetched from SCM on the first call. */
  public SealingKey key() throws IOException {
    SealingKey known = key;
    if (known != null) {
      return known;
    }
    synchronized (this) {
      if (key == null) {
        try {
          GetSealingKeyResponse fetched = scm.call(() -> scm.stub(ScmSecurityServiceGrpc::newBlockingStub)
              .getSealingKey(GetSealingKeyRequest.getDefaultInstance()));
          SealingKey made = SealingKey.of(fetched.getKey().toByteArray());
          if (!made.id().equals(fetched.getId())) {
            throw new IOException("SCM's sealing key does not match its id " + fetched.getId());
          }
          key = made;
        } catch (ScmException | IllegalArgumentException e) {
          throw new IOException("cannot fetch the sealing key from SCM: " + e.getMessage(), e);
        }
      }
      return key;
    }
  }

  @Override
  public void close() {
    scm.close();
  }
}
