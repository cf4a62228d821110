package org.tropos.client.internal.ratis;

import java.util.concurrent.CompletionException;
import org.apache.ratis.retry.RetryPolicy;
import org.tropos.common.rpc.RaftRefusal;

/**
 * Ratis's retries of a pipeline write, except after a datanode's refusal ({@link RaftRefusal}: its container is
 * closed or its disk full, the datanode is busy, the block token is wrong). Sent again the command is refused
 * again, so retrying it until the write timeout (minutes) only holds the writer back from another container or
 * pipeline; the refusal reaches it at once, with its result.
 */
final class RefusalsNotRetried implements RetryPolicy {
  private final RetryPolicy otherwise;

  RefusalsNotRetried(RetryPolicy otherwise) {
    this.otherwise = otherwise;
  }

  @Override
  public Action handleAttemptFailure(Event event) {
    return refusal(event.getCause()) != null ? NO_RETRY_ACTION : otherwise.handleAttemptFailure(event);
  }

  /**
   * {@code failure} as the writer should see it: the datanode's refusal anywhere in its causes (the Ratis client
   * wraps it in a retry failure) as a {@link org.tropos.common.rpc.DatanodeException} with its result, else itself.
   */
  static Throwable asRefusal(Throwable failure) {
    RaftRefusal refusal = refusal(failure);
    if (refusal != null) {
      return refusal.toDatanodeException();
    }
    return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
  }

  private static RaftRefusal refusal(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RaftRefusal refusal) {
        return refusal;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "RefusalsNotRetried(" + otherwise + ")";
  }
}
