package org.tropos.common.rpc;

import org.tropos.proto.datanode.DatanodeResult;

/** An operating error of a datanode (no such block, container not open, checksum mismatch, disk full). */
public final class DatanodeException extends Exception {
  private static final long serialVersionUID = 1L;
  private final DatanodeResult result;

  public DatanodeException(DatanodeResult result, String message) {
    super(message);
    this.result = result;
  }

  public DatanodeException(DatanodeResult result, String message, Throwable cause) {
    super(message, cause);
    this.result = result;
  }

  public DatanodeResult result() {
    return result;
  }

  public boolean isRetriable() {
    return RpcErrors.isRetriable(result);
  }

  @Override
  public String toString() {
    return result + ": " + getMessage();
  }
}
