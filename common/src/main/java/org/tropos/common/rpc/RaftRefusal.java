package org.tropos.common.rpc;

import java.io.IOException;
import org.tropos.proto.datanode.DatanodeResult;

/**
 * A datanode's refusal of a request before it entered a pipeline's Raft log (the state machine's
 * startTransaction). Ratis carries it to the client as this class's name and its message, and builds it again
 * there from the message alone: so the message starts with the {@link DatanodeResult}'s name.
 */
public final class RaftRefusal extends IOException {
  private static final long serialVersionUID = 1L;
  private static final String SEPARATOR = ": ";

  /** The form Ratis rebuilds it in; {@code message} as {@link #of} makes it. */
  public RaftRefusal(String message) {
    super(message);
  }

  public static RaftRefusal of(DatanodeException refusal) {
    return new RaftRefusal(refusal.result().name() + SEPARATOR + refusal.getMessage());
  }

  /** The refusal as the datanode gave it; INTERNAL_ERROR with the whole message if it names no result. */
  public DatanodeException toDatanodeException() {
    String message = String.valueOf(getMessage());
    int end = message.indexOf(SEPARATOR);
    if (end > 0) {
      try {
        return new DatanodeException(DatanodeResult.valueOf(message.substring(0, end)),
            message.substring(end + SEPARATOR.length()), this);
      } catch (IllegalArgumentException e) {
        // Not a result's name: fall through.
      }
    }
    return new DatanodeException(DatanodeResult.INTERNAL_ERROR, message, this);
  }
}
