package org.tropos.datanode.read;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.util.List;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.datanode.ReadBlockRequest;

/**
 * Cuts the block port's bytes into requests: a 4-byte length, that many bytes of {@link ReadBlockRequest}, and for
 * an erasure-coded chunk write the chunk's bytes after it. A request longer than the limits (64 KiB of request, a
 * chunk of at most a cell) closes the connection: the rest of its bytes could not be told from the next request's.
 */
final class BlockPortFrameDecoder extends ByteToMessageDecoder {
  static final int MAX_REQUEST_BYTES = 64 * 1024;

  /** A request with its chunk's bytes (null when none), or why it could not be read ({@code unreadable}). */
  record Frame(ReadBlockRequest request, ByteBuf data, String unreadable) {
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws IOException {
    if (in.readableBytes() < 4) {
      return;
    }
    int requestLength = in.getInt(in.readerIndex());
    if (requestLength < 0 || requestLength > MAX_REQUEST_BYTES) {
      throw new TooLongFrameException("a request of " + requestLength + " bytes; at most " + MAX_REQUEST_BYTES);
    }
    if (in.readableBytes() < 4 + requestLength) {
      return;
    }
    ReadBlockRequest request;
    try {
      request = ReadBlockRequest.parseFrom(new ByteBufInputStream(in.slice(in.readerIndex() + 4, requestLength)));
    } catch (InvalidProtocolBufferException e) {
      in.skipBytes(4 + requestLength);
      out.add(new Frame(null, null, "unreadable ReadBlockRequest: " + e.getMessage()));
      return;
    }
    long dataLength = request.getEcWrite().getChunk().getLength();
    if (dataLength < 0 || dataLength > EcReplication.MAX_CELL_SIZE) {
      throw new TooLongFrameException("a chunk of " + dataLength + " bytes; at most " + EcReplication.MAX_CELL_SIZE);
    }
    if (in.readableBytes() < 4 + requestLength + dataLength) {
      return;
    }
    in.skipBytes(4 + requestLength);
    out.add(new Frame(request, dataLength == 0 ? null : in.readRetainedSlice((int) dataLength), null));
  }
}
