package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.EcWrite;
import org.tropos.proto.datanode.ReadBlockRequest;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;

/**
 * Carries out the writes to erasure-coded replicas that come on the block port: the block's WRITE token checked,
 * then the write done on a bounded pool of writers (disks and RocksDB never on the event loop; past the pool's
 * queue a write is answered DATANODE_BUSY and changes nothing), and answered with its result.
 */
final class EcWriteRequests {
  private static final Logger LOG = LoggerFactory.getLogger(EcWriteRequests.class);
  private static final ByteBuffer NO_BYTES = ByteBuffer.allocate(0);

  private final BlockPortService service;
  private final BlockAccess access;
  private final Executor writers;

  EcWriteRequests(BlockPortService service, BlockAccess access, Executor writers) {
    this.service = service;
    this.access = access;
    this.writers = writers;
  }

  /** Writes and answers; {@code data} (a chunk's bytes, or null) is released once written. */
  void write(ChannelHandlerContext ctx, ReadBlockRequest request, ByteBuf data) {
    try {
      writers.execute(() -> serve(ctx, request, data));
    } catch (RejectedExecutionException e) {
      release(data);
      ReadRequestHandler.respondError(ctx, DatanodeResult.DATANODE_BUSY, "too many writes in flight");
    }
  }

  private void serve(ChannelHandlerContext ctx, ReadBlockRequest request, ByteBuf data) {
    EcWrite write = request.getEcWrite();
    BlockId block = write.hasChunk() ? write.getChunk().getBlockId() : write.getPutBlock().getBlockId();
    try {
      access.check(request.getToken(), block, AccessMode.ACCESS_WRITE);
      service.writeEc(write, data == null ? NO_BYTES : data.nioBuffer());
      ctx.writeAndFlush(ReadRequestHandler.frame(ReadBlockResponse.newBuilder().setResult(DatanodeResult.OK)
          .build()));
    } catch (DatanodeException e) {
      ReadRequestHandler.respondError(ctx, e.result(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("A write to block {}/{} failed unexpectedly", block.getContainerId(), block.getLocalId(), e);
      ReadRequestHandler.respondError(ctx, DatanodeResult.INTERNAL_ERROR, "the write failed: " + e);
    } finally {
      release(data);
    }
  }

  private static void release(ByteBuf data) {
    if (data != null) {
      data.release();
    }
  }
}
