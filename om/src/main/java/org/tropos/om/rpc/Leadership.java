package org.tropos.om.rpc;

import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.GetOmRoleResponse;
import org.tropos.proto.om.OmResult;

/**
 * Whether this OM may serve clients now. A single OM always may; an OM of an HA service only while it leads the
 * service's Raft group and has applied everything committed before its term (its reads are then as fresh as the
 * group's, and only one OM in a term hands out object ids).
 */
public interface Leadership {
  /** A single OM's: always serving. */
  Leadership SINGLE = new Leadership() {
    @Override
    public void require() {
    }

    @Override
    public boolean leads() {
      return true;
    }

    @Override
    public GetOmRoleResponse role() {
      return GetOmRoleResponse.newBuilder().setRole("SINGLE").build();
    }

    @Override
    public void transferTo(String nodeId) throws OmException {
      throw new OmException(OmResult.INVALID_REQUEST, "this OM is not part of an HA service: there is no"
          + " leadership to transfer");
    }
  };

  /** Returns if this OM may serve; NOT_LEADER (with the leader's address when known) if not. */
  void require() throws OmException;

  /**
   * Returns if this OM may serve a read call: as {@link #require}, or as a follower that serves reads once it has
   * applied everything committed when the call arrived.
   */
  default void requireForRead() throws OmException {
    require();
  }

  /** Whether this OM leads now (for background work only the leader does). */
  boolean leads();

  /** This OM's node id and role, as {@code tropos admin om roles} shows them. */
  GetOmRoleResponse role();

  /** Hands the leadership to OM {@code nodeId}; returns once that OM leads. */
  void transferTo(String nodeId) throws OmException;
}
