package org.tropos.client;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.GetScmInfoResponse;
import org.tropos.proto.scm.ListDatanodesRequest;
import org.tropos.proto.scm.ScmAdminServiceGrpc;

/** A client of SCM's admin service. Failures arrive as {@link ScmException} with SCM's result code. */
public final class ScmAdminClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

  private final HostPort address;
  private final ManagedChannel channel;

  public ScmAdminClient(HostPort address) {
    this.address = address;
    this.channel = NettyChannelBuilder.forAddress(address.host(), address.port()).usePlaintext().build();
  }

  public GetScmInfoResponse scmInfo() throws ScmException {
    try {
      return stub().getScmInfo(GetScmInfoRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      throw ScmException.fromRpc(e, address.toString());
    }
  }

  /** Datanodes in {@code state}, or all with {@link NodeState#NODE_STATE_UNSPECIFIED}. */
  public List<DatanodeStatus> listDatanodes(NodeState state) throws ScmException {
    try {
      return stub().listDatanodes(ListDatanodesRequest.newBuilder().setState(state).build()).getDatanodesList();
    } catch (StatusRuntimeException e) {
      throw ScmException.fromRpc(e, address.toString());
    }
  }

  private ScmAdminServiceGrpc.ScmAdminServiceBlockingStub stub() {
    return ScmAdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_TIMEOUT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
