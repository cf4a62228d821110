package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.container.DirectIo;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.ReadBlockRequest;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;

/**
 * Answers one framed {@link ReadBlockRequest} at a time (a write to an erasure-coded replica goes to
 * {@link EcWriteRequests}): the lookup (RocksDB) runs on the planner pool, never on
 * the event loop; then the header and the bytes are written, the bytes as a file region (sendfile), a large range
 * as direct reads ({@link DirectChunkedFile}), or, for the benchmark's baseline, as heap chunks. An error is a
 * header with a result and no bytes.
 */
final class ReadRequestHandler extends SimpleChannelInboundHandler<BlockPortFrameDecoder.Frame> {
  private static final Logger LOG = LoggerFactory.getLogger(ReadRequestHandler.class);

  /** What one chunk of a read over TLS reads ahead of the encryption: four TLS records. */
  private static final int ENCRYPTED_CHUNK_BYTES = 64 * 1024;

  private final BlockPortService planner;
  private final BlockAccess access;
  private final Executor planners;
  private final BlockTransfer transfer;
  private final DirectIo directIo;
  private final Executor readers;
  private final ChunkedWriteHandler chunks;
  private final boolean encrypted;
  private final EcWriteRequests writes;

  /**
   * @param writes where erasure-coded writes go
   * @param readers where direct reads read ahead ({@link DirectChunkedFile})
   * @param chunks the channel's handler that sends chunked bodies, restarted when a piece read ahead is ready
   * @param encrypted whether the connection speaks TLS: its bytes must then pass through the JVM to be encrypted,
   *     read in chunks instead of sent from the page cache
   */
  ReadRequestHandler(BlockPortService planner, BlockAccess access, Executor planners, BlockTransfer transfer,
      DirectIo directIo, Executor readers, ChunkedWriteHandler chunks, boolean encrypted, EcWriteRequests writes) {
    this.encrypted = encrypted;
    this.writes = writes;
    this.planner = planner;
    this.access = access;
    this.planners = planners;
    this.transfer = transfer;
    this.directIo = directIo;
    this.readers = readers;
    this.chunks = chunks;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, BlockPortFrameDecoder.Frame frame) {
    if (frame.unreadable() != null) {
      respondError(ctx, DatanodeResult.INVALID_REQUEST, frame.unreadable());
      return;
    }
    ReadBlockRequest request = frame.request();
    if (request.hasEcWrite()) {
      writes.write(ctx, request, frame.data());
      return;
    }
    try {
      planners.execute(() -> serveOrFail(ctx, request));
    } catch (RejectedExecutionException e) {
      respondError(ctx, DatanodeResult.DATANODE_BUSY, "too many reads in flight");
    }
  }

  /** Serves the read; an unexpected failure still answers, or the reader would wait out its whole timeout. */
  private void serveOrFail(ChannelHandlerContext ctx, ReadBlockRequest request) {
    try {
      serve(ctx, request);
    } catch (RuntimeException e) {
      LOG.warn("A read of block {} failed unexpectedly", request.getBlockId(), e);
      respondError(ctx, DatanodeResult.INTERNAL_ERROR, "the read failed: " + e);
    }
  }

  private void serve(ChannelHandlerContext ctx, ReadBlockRequest request) {
    if (request.getListContainer()) {
      list(ctx, request);
      return;
    }
    ReadPlan plan;
    try {
      access.check(request.getToken(), request.getBlockId(), AccessMode.ACCESS_READ);
      plan = planner.planRead(request.getBlockId(), request.getOffset(), request.getLength());
    } catch (DatanodeException e) {
      respondError(ctx, e.result(), e.getMessage());
      return;
    }
    ReadBlockResponse header = header(plan);
    if (request.getChecksumsOnly()) {
      ctx.writeAndFlush(frame(header));
      return;
    }
    Object body;
    try {
      body = body(ctx, plan);
    } catch (IOException e) {
      LOG.warn("Cannot open {} for a read: {}", plan.file(), e.toString());
      ctx.close();
      return;
    }
    // One task for the event loop, not one per write: each wakes it.
    try {
      ctx.executor().execute(() -> {
        ctx.write(frame(header));
        ctx.writeAndFlush(body).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
      });
    } catch (RejectedExecutionException e) {
      discard(body);
    }
  }

  /** What a read of {@code plan} is answered with before its bytes. */
  static ReadBlockResponse header(ReadPlan plan) {
    return ReadBlockResponse.newBuilder().setResult(DatanodeResult.OK).setOffset(plan.offset())
        .setLength(plan.length()).setChecksums(plan.checksums()).setBlockLength(plan.blockLength()).build();
  }

  /** A body never sent (the server is stopping): its file and buffers are let go. */
  private static void discard(Object body) {
    if (body instanceof ChunkedInput<?> input) {
      try {
        input.close();
      } catch (Exception e) {
        LOG.debug("Closing an unsent read body failed: {}", e.toString());
      }
    } else {
      ReferenceCountUtil.release(body);
    }
  }

  /**
   * The range's bytes as they leave: sendfile, a direct read for a large range, heap copies (the baseline), or, over
   * TLS, chunks read into pooled buffers for the TLS handler to encrypt.
   */
  private Object body(ChannelHandlerContext ctx, ReadPlan plan) throws IOException {
    if (transfer == BlockTransfer.COPYING) {
      return new HeapChunkedFile(plan.file(), plan.offset(), plan.length());
    }
    if (directIo.reads(plan.length())) {
      try {
        // Always a new task on the event loop: resumeTransfer called there flushes at once, so a piece read between
        // readChunk's check and its callback flushed inside the flush that called readChunk, which then ended the
        // transfer a second time (CI saw a connection closed mid-response).
        return new DirectChunkedFile(directIo, plan.file(), plan.offset(), plan.length(), ctx.alloc(), readers,
            () -> ctx.executor().execute(chunks::resumeTransfer));
      } catch (IOException e) {
        directIo.failed(plan.file(), e);
      }
    }
    if (encrypted) {
      return new ChunkedNioFile(FileChannel.open(plan.file(), StandardOpenOption.READ), plan.offset(),
          plan.length(), ENCRYPTED_CHUNK_BYTES);
    }
    return new DefaultFileRegion(plan.file().toFile(), plan.offset(), plan.length());
  }

  private void list(ChannelHandlerContext ctx, ReadBlockRequest request) {
    long containerId = request.getBlockId().getContainerId();
    try {
      access.check(request.getToken(), BlockId.newBuilder().setContainerId(containerId).build(),
          AccessMode.ACCESS_READ);
      ctx.writeAndFlush(frame(ReadBlockResponse.newBuilder().setResult(DatanodeResult.OK)
          .setListing(planner.listContainer(containerId)).build()));
    } catch (DatanodeException e) {
      respondError(ctx, e.result(), e.getMessage());
    }
  }

  static void respondError(ChannelHandlerContext ctx, DatanodeResult result, String message) {
    ctx.writeAndFlush(frame(ReadBlockResponse.newBuilder().setResult(result).setMessage(message).build()));
  }

  static ByteBuf frame(ReadBlockResponse header) {
    byte[] bytes = header.toByteArray();
    return Unpooled.buffer(4 + bytes.length).writeInt(bytes.length).writeBytes(bytes);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("Read connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
