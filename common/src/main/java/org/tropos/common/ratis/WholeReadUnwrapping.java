package org.tropos.common.ratis;

import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;
import org.apache.ratis.thirdparty.io.netty.buffer.ByteBufAllocator;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.ApplicationProtocolNegotiator;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;

/**
 * A server's TLS context whose engines decrypt every whole record a read brought in one pass. gRPC's server takes
 * its engine from {@link SslContext#newEngine(ByteBufAllocator)}, which gives an OpenSSL engine in the mode that
 * mimics the JDK's: one record per pass, each with its own output buffer handed to HTTP/2 on its own, which then
 * copies it onto the partial frame the last one left. A datanode's Raft port receives the data of every write in
 * 16 KiB records, each a pass, a buffer and a copy more in that mode; the engine of
 * {@link SslContext#newHandler(ByteBufAllocator)} works in the batched mode and is the same otherwise.
 */
final class WholeReadUnwrapping extends SslContext {
  private final SslContext context;

  WholeReadUnwrapping(SslContext context) {
    this.context = context;
  }

  @Override
  public SSLEngine newEngine(ByteBufAllocator alloc) {
    return context.newHandler(alloc).engine();
  }

  @Override
  public SSLEngine newEngine(ByteBufAllocator alloc, String peerHost, int peerPort) {
    return context.newHandler(alloc, peerHost, peerPort).engine();
  }

  @Override
  public boolean isClient() {
    return context.isClient();
  }

  @Override
  public List<String> cipherSuites() {
    return context.cipherSuites();
  }

  @Override
  public ApplicationProtocolNegotiator applicationProtocolNegotiator() {
    return context.applicationProtocolNegotiator();
  }

  @Override
  public SSLSessionContext sessionContext() {
    return context.sessionContext();
  }
}
