package org.tropos.common.rpc;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tropos.common.net.HostPort;

/**
 * A channel to one of SCM's services, shared by its clients: stubs get a deadline per call and failed calls
 * arrive as {@link ScmException} with SCM's result (or SCM_NOT_READY when SCM cannot be reached).
 */
public final class ScmChannel implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

  private final HostPort address;
  private final ManagedChannel channel;

  public ScmChannel(HostPort address) {
    this.address = address;
    this.channel = NettyChannelBuilder.forAddress(address.host(), address.port()).usePlaintext().build();
  }

  /** A stub for this channel with the call deadline set, e.g. {@code stub(ScmBlockServiceGrpc::newBlockingStub)}. */
  public <S extends AbstractStub<S>> S stub(Function<ManagedChannel, S> newStub) {
    return newStub.apply(channel).withDeadlineAfter(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Runs one call, translating its failure. */
  public <T> T call(Supplier<T> rpc) throws ScmException {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw ScmException.fromRpc(e, address.toString());
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
