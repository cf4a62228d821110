package org.tropos.common.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A read connection over TLS, on the same non-blocking socket as plaintext: the JDK's {@link SSLEngine} turns the
 * socket's records into bytes (and requests into records), so the client keeps its selector, its timeouts and its
 * check that an idle connection is still good. The handshake runs at once, waiting as the client does.
 *
 * <p>Not thread-safe, as its client.
 */
final class TlsReadConnection implements ReadConnection {
  private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

  /** The socket's own bytes: the records. */
  private final PlainReadConnection socket;
  private final SSLEngine engine;
  /** Bytes from the socket not yet decrypted (filled from position, as a socket read does). */
  private final ByteBuffer netIn;
  /** Decrypted bytes not yet handed out (drained from position). */
  private final ByteBuffer appIn;
  private final ByteBuffer netOut;

  TlsReadConnection(SocketChannel channel, SSLContext context, String host, int port, Readiness readiness)
      throws IOException {
    this.socket = new PlainReadConnection(channel);
    this.engine = context.createSSLEngine(host, port);
    engine.setUseClientMode(true);
    this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
    this.netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    handshake(readiness);
  }

  private void handshake(Readiness readiness) throws IOException {
    engine.beginHandshake();
    HandshakeStatus status = engine.getHandshakeStatus();
    while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
      switch (status) {
        case NEED_WRAP -> status = wrapAndSend(NOTHING).getHandshakeStatus();
        case NEED_TASK -> status = runTasks();
        case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
          SSLEngineResult result = unwrap();
          if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("the read server closed the connection during the TLS handshake");
          }
          if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
            int n = socket.read(netIn);
            if (n < 0) {
              throw new SSLException("the read server closed the connection during the TLS handshake");
            }
            if (n == 0) {
              readiness.await();
            }
          }
          status = result.getHandshakeStatus();
        }
        default -> throw new SSLException("unexpected TLS handshake state " + status);
      }
    }
  }

  @Override
  public int read(ByteBuffer target) throws IOException {
    while (!appIn.hasRemaining()) {
      SSLEngineResult result = unwrap();
      switch (result.getStatus()) {
        case CLOSED -> {
          return -1;
        }
        case BUFFER_UNDERFLOW -> {
          int n = socket.read(netIn);
          if (n <= 0) {
            return n;
          }
        }
        case BUFFER_OVERFLOW -> throw new SSLException("a TLS record larger than the session's buffer");
        default -> afterRecord(result.getHandshakeStatus());
      }
    }
    int n = Math.min(appIn.remaining(), target.remaining());
    target.put(appIn.slice(appIn.position(), n));
    appIn.position(appIn.position() + n);
    return n;
  }

  /** Answers what a record after the handshake asks for (a key update, a session ticket's task). */
  private void afterRecord(HandshakeStatus status) throws IOException {
    if (status == HandshakeStatus.NEED_TASK) {
      status = runTasks();
    }
    if (status == HandshakeStatus.NEED_WRAP) {
      wrapAndSend(NOTHING);
    }
  }

  @Override
  public void writeFully(ByteBuffer source) throws IOException {
    while (source.hasRemaining()) {
      if (wrapAndSend(source).getStatus() == SSLEngineResult.Status.CLOSED) {
        throw new SSLException("the TLS connection is closed");
      }
    }
  }

  @Override
  public boolean isOpenWithNothingUnread() {
    return !appIn.hasRemaining() && netIn.position() == 0 && socket.isOpenWithNothingUnread();
  }

  /** Decrypts what {@link #netIn} holds into {@link #appIn} (empty then), one record at most. */
  private SSLEngineResult unwrap() throws SSLException {
    netIn.flip();
    appIn.clear();
    try {
      return engine.unwrap(netIn, appIn);
    } finally {
      appIn.flip();
      netIn.compact();
    }
  }

  private SSLEngineResult wrapAndSend(ByteBuffer source) throws IOException {
    netOut.clear();
    SSLEngineResult result = engine.wrap(source, netOut);
    socket.writeFully(netOut.flip());
    return result;
  }

  private HandshakeStatus runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run();
    }
    return engine.getHandshakeStatus();
  }

  @Override
  public void close() throws IOException {
    engine.closeOutbound();
    socket.close();
  }
}
