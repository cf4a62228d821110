package org.tropos.common.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.tropos.common.io.ByteSink;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.datanode.ReadBlockRequest;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;

/**
 * One connection to a datanode's block port (its read server, which also takes writes to erasure-coded replicas).
 * Each read sends a ReadBlock request and checks every byte that
 * comes back against its checksum before handing it on; a mismatch fails the read (and the connection, whose
 * stream is then mid-block) with CHECKSUM_MISMATCH so the caller can go to another replica.
 *
 * <p>Not thread-safe: one reader at a time per connection.
 */
public final class BlockReadClient implements AutoCloseable {
  /** Large socket buffers: fewer wakeups and acknowledgements per GiB read. */
  private static final int SOCKET_BUFFER_BYTES = 4 << 20;

  private final HostPort address;
  private final Selector selector;
  private final ReadConnection connection;
  private final long timeoutMs;
  private final ByteBuffer buffer = BlockPieces.scratch();
  private boolean answeredBefore;

  /** A connection in plaintext. */
  public BlockReadClient(HostPort address, Duration timeout) throws IOException {
    this(address, timeout, TransportSecurity.plaintext());
  }

  /**
   * A connection as {@code transport} says: in a secure cluster over TLS, trusting only a datanode of the cluster
   * and showing this process's certificate if it has one.
   */
  public BlockReadClient(HostPort address, Duration timeout, TransportSecurity transport) throws IOException {
    this.address = address;
    this.timeoutMs = timeout.toMillis();
    SocketChannel channel = SocketChannel.open();
    Selector opened = null;
    try {
      channel.setOption(java.net.StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
      // A killed datanode's address answers nothing: a writer or reader moves on to another after a connect
      // timeout, not after the longer wait for data (an S3 client would give up on the whole request first).
      channel.socket().connect(new InetSocketAddress(address.host(), address.port()),
          (int) Math.min(timeoutMs, RpcChannel.CONNECT_TIMEOUT.toMillis()));
      channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
      channel.configureBlocking(false);
      opened = Selector.open();
      this.selector = opened;
      channel.register(selector, SelectionKey.OP_READ);
      this.connection = transport.tls() ? new TlsReadConnection(channel, transport.socketContext(
          ServiceRole.DATANODE), address.host(), address.port(), this::awaitReadable)
          : new PlainReadConnection(channel);
    } catch (IOException e) {
      if (opened != null) {
        opened.close();
      }
      channel.close();
      throw new IOException("cannot connect to the read server at " + address + ": " + e.getMessage(), e);
    }
  }

  public HostPort address() {
    return address;
  }

  /** Whether a read on this connection succeeded before: a failure now may be the connection's, gone stale. */
  public boolean answeredBefore() {
    return answeredBefore;
  }

  /**
   * Whether the connection can take another request: still open, the server has not closed its end, and no byte
   * is waiting that would belong to an earlier response.
   */
  public boolean isOpenWithNothingUnread() {
    return connection.isOpenWithNothingUnread();
  }

  /**
   * Reads bytes {@code offset} to {@code offset + length} of a block, verifying every checksum, into {@code sink}.
   * A piece wanted whole is received into memory the sink lends, if it does. Returns the block's committed length.
   * {@code token}: the block's READ token in a secure cluster (else the default instance).
   */
  public long read(BlockId block, long offset, long length, BlockToken token, ByteSink sink)
      throws IOException, DatanodeException {
    byte[] request = ReadBlockRequest.newBuilder().setBlockId(block).setOffset(offset).setLength(length)
        .setToken(token).build().toByteArray();
    connection.writeFully(ByteBuffer.allocate(4 + request.length).putInt(request.length).put(request).flip());
    ReadBlockResponse header = readHeader();
    if (header.getResult() != DatanodeResult.OK) {
      throw new DatanodeException(header.getResult(), address + ": " + header.getMessage());
    }
    try {
      BlockPieces.receive(header, offset, length, sink, this::readFully, bytes -> buffer, address.toString());
    } catch (DatanodeException e) {
      // The stream is mid-response: the connection cannot carry another read.
      close();
      throw e;
    }
    answeredBefore = true;
    return header.getBlockLength();
  }

  /** The stored checksums covering bytes {@code offset} to {@code offset + length} (widened), with no data. */
  public ReadBlockResponse checksums(BlockId block, long offset, long length, BlockToken token)
      throws IOException, DatanodeException {
    byte[] request = ReadBlockRequest.newBuilder().setBlockId(block).setOffset(offset).setLength(length)
        .setChecksumsOnly(true).setToken(token).build().toByteArray();
    connection.writeFully(ByteBuffer.allocate(4 + request.length).putInt(request.length).put(request).flip());
    ReadBlockResponse header = readHeader();
    if (header.getResult() != DatanodeResult.OK) {
      throw new DatanodeException(header.getResult(), address + ": " + header.getMessage());
    }
    return header;
  }

  /**
   * What a copy of a closed container needs from this replica: its state, bcsid and every block's record.
   * {@code token}: a READ token for the container in a secure cluster.
   */
  public ContainerListing listContainer(long containerId, BlockToken token) throws IOException, DatanodeException {
    byte[] request = ReadBlockRequest.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(containerId))
        .setListContainer(true).setToken(token).build().toByteArray();
    connection.writeFully(ByteBuffer.allocate(4 + request.length).putInt(request.length).put(request).flip());
    ReadBlockResponse header = readHeader();
    if (header.getResult() != DatanodeResult.OK) {
      throw new DatanodeException(header.getResult(), address + ": " + header.getMessage());
    }
    return header.getListing();
  }

  /**
   * Writes to an erasure-coded replica (which has no Raft group): {@code data} holds a chunk's bytes (none for a
   * PutBlock alone); returns once the datanode has written, and for a commit synced, them. {@code token}: a WRITE
   * token for the block in a secure cluster.
   */
  public void writeEc(EcWrite write, BlockToken token, ByteBuffer data) throws IOException, DatanodeException {
    byte[] request = ReadBlockRequest.newBuilder().setEcWrite(write).setToken(token).build().toByteArray();
    connection.writeFully(ByteBuffer.allocate(4 + request.length).putInt(request.length).put(request).flip());
    connection.writeFully(data.duplicate());
    ReadBlockResponse header = readHeader();
    if (header.getResult() != DatanodeResult.OK) {
      throw new DatanodeException(header.getResult(), address + ": " + header.getMessage());
    }
  }

  private ReadBlockResponse readHeader() throws IOException {
    // Just after the request the answer cannot be here yet: a read now would only find nothing.
    awaitReadable();
    ByteBuffer size = ByteBuffer.allocate(4);
    readFully(size);
    int bytes = size.flip().getInt();
    if (bytes < 0 || bytes > 64 << 20) {
      throw new IOException(address + " sent a response header of " + bytes + " bytes");
    }
    ByteBuffer header = ByteBuffer.allocate(bytes);
    readFully(header);
    return ReadBlockResponse.parseFrom(header.flip());
  }

  private void readFully(ByteBuffer target) throws IOException {
    while (target.hasRemaining()) {
      int n = connection.read(target);
      if (n < 0) {
        throw new IOException(address + " closed the connection mid-response");
      }
      if (n == 0) {
        awaitReadable();
      }
    }
  }

  private void awaitReadable() throws IOException {
    if (selector.select(timeoutMs) == 0) {
      throw new SocketTimeoutException("no data from " + address + " for " + timeoutMs + " ms");
    }
    selector.selectedKeys().clear();
  }

  @Override
  public void close() throws IOException {
    try {
      selector.close();
    } finally {
      connection.close();
    }
  }
}
