package org.tropos.common.rpc;

import io.grpc.ManagedChannel;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tropos.common.net.HostPort;

/** A channel to one of SCM's services: failed calls arrive as {@link ScmException}. */
public final class ScmChannel implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

  private final RpcChannel<ScmException> channel;

  public ScmChannel(HostPort address) {
    this.channel = new RpcChannel<>(address, ScmException::fromRpc, CALL_TIMEOUT);
  }

  public <S extends AbstractStub<S>> S stub(Function<ManagedChannel, S> newStub) {
    return channel.stub(newStub);
  }

  public <T> T call(Supplier<T> rpc) throws ScmException {
    return channel.call(rpc);
  }

  @Override
  public void close() {
    channel.close();
  }
}
