package org.tropos.common.net;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The transport of the servers that use Netty themselves (the S3 gateway, the datanode's block reads): Linux's
 * epoll through Netty's native library where it loads, else the JDK's NIO. The native transport wakes and writes
 * with fewer system calls and allocations per request than NIO's selector, as gRPC's own transport does.
 */
public final class NettyTransport {
  private NettyTransport() {
  }

  /** Whether the native epoll transport is in use. */
  public static boolean isNative() {
    return Epoll.isAvailable();
  }

  public static IoHandlerFactory ioHandlers() {
    return isNative() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
  }

  public static Class<? extends ServerChannel> serverChannel() {
    return isNative() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
