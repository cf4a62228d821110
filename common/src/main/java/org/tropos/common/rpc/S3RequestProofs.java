package org.tropos.common.rpc;

import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Metadata;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.S3RequestConditions;

/**
 * The S3 gateway's calls to the OM for an S3 request carry what the request's signature proves (its string to sign,
 * signature and scope, as the OM's CheckS3Signature takes them), so the OM acts as the S3 user it checks the
 * signature of, not as whoever the gateway would name (Ozone forwards its S3 authentication so). The gateway's
 * thread serving a request carries the proof in its gRPC {@link Context} ({@link #acting}); every call the thread
 * makes to an OM sends it ({@link #sending}). Calls the gateway makes on its own, or for an anonymous request, carry
 * none: the OM then acts for nobody.
 */
public final class S3RequestProofs {
  public static final Metadata.Key<byte[]> HEADER = Metadata.Key.of("tropos-s3-request-bin",
      Metadata.BINARY_BYTE_MARSHALLER);
  private static final Context.Key<byte[]> PROOF = Context.key("tropos-s3-request");

  private S3RequestProofs() {
  }

  /** Restores the context that {@link #acting} replaced, when the request has been served. */
  public interface Acting extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Makes the calling thread's OM calls carry {@code proof} (none for an anonymous request: null) and the request's
   * {@code conditions} ({@link RequestConditions}; null: none) until the result is closed (by the same thread).
   */
  public static Acting acting(CheckS3SignatureRequest proof, S3RequestConditions conditions) {
    Context acting = Context.current().withValues(PROOF, proof == null ? null : proof.toByteArray(),
        RequestConditions.SENDING, conditions == null ? null : conditions.toByteArray());
    Context previous = acting.attach();
    return () -> acting.detach(previous);
  }

  /** Sends the proof the calling thread carries, if any, with each call (added to channels to an OM only). */
  static ClientInterceptor sending() {
    return HeaderInterceptors.sendingFromContext(PROOF, HEADER);
  }
}
