package org.tropos.common.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A read connection in plaintext: the socket's bytes as they are. */
final class PlainReadConnection implements ReadConnection {
  private final SocketChannel channel;
  private final ByteBuffer probe = ByteBuffer.allocate(1);

  PlainReadConnection(SocketChannel channel) {
    this.channel = channel;
  }

  @Override
  public int read(ByteBuffer target) throws IOException {
    return channel.read(target);
  }

  @Override
  public void writeFully(ByteBuffer source) throws IOException {
    while (source.hasRemaining()) {
      channel.write(source);
    }
  }

  @Override
  public boolean isOpenWithNothingUnread() {
    if (!channel.isOpen()) {
      return false;
    }
    try {
      return channel.read(probe.clear()) == 0;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
