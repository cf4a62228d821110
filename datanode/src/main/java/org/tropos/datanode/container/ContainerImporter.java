package org.tropos.datanode.container;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.BlockReadClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ContainerState;

/**
 * Copies a closed container from a replica on another datanode: the source lists the container's blocks, then
 * each block is read through the source's read server (sent with sendfile, as every read is) and every byte is
 * verified against its stored checksum before it is written to the staging copy. Only a whole, verified copy is
 * adopted; a source that fails (unreachable, a corrupt block, a replica that is not closed) is left for the next
 * one, and its partial copy removed.
 *
 * <p>Thread-safe: each copy has its own connection and staging directory.
 */
public final class ContainerImporter {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerImporter.class);

  private final String nodeName;
  private final ContainerStore store;
  private final Duration timeout;
  private final BlockAccess access;
  private final TransportSecurity transport;

  /** Copies in plaintext. */
  public ContainerImporter(String nodeName, ContainerStore store, Duration timeout, BlockAccess access) {
    this(nodeName, store, timeout, access, TransportSecurity.plaintext());
  }

  /**
   * @param access signs this datanode's container tokens, which a secure cluster's source asks for
   * @param transport TLS to the source's read port in a secure cluster
   */
  public ContainerImporter(String nodeName, ContainerStore store, Duration timeout, BlockAccess access,
      TransportSecurity transport) {
    this.nodeName = nodeName;
    this.store = store;
    this.timeout = timeout;
    this.access = access;
    this.transport = transport;
  }

  /**
   * Makes this datanode hold a replica of the container, copied from the first of {@code sources} (read servers)
   * that serves it whole; nothing to do if it holds one already.
   */
  public void copy(long containerId, List<HostPort> sources) throws DatanodeException {
    if (store.descriptor(containerId).isPresent()) {
      return;
    }
    DatanodeException failure = new DatanodeException(DatanodeResult.INVALID_REQUEST, "no source to copy"
        + " container " + containerId + " from");
    for (HostPort source : sources) {
      ContainerCopies.Staging copy = store.stage(containerId);
      try {
        Copied copied = copyFrom(source, containerId, copy);
        store.adopt(copy, copied.descriptor(), copied.blocks());
        return;
      } catch (IOException | DatanodeException | UncheckedIOException e) {
        copy.discard();
        failure = e instanceof DatanodeException d ? d : new DatanodeException(DatanodeResult.IO_ERROR,
            "copy of container " + containerId + " from " + source + " failed: " + e.getMessage(), e);
        LOG.warn("{}: copying container {} from {} failed: {}", nodeName, containerId, source, e.toString());
      }
    }
    throw failure;
  }

  /** A copy made: the replica's descriptor and the records of the blocks it holds. */
  private record Copied(ContainerDescriptor descriptor, List<BlockData> blocks) {
  }

  private Copied copyFrom(HostPort source, long containerId, ContainerCopies.Staging copy)
      throws IOException, DatanodeException {
    BlockToken token = access.forContainer(containerId, AccessMode.ACCESS_READ);
    try (BlockReadClient client = new BlockReadClient(source, timeout, transport)) {
      ContainerListing listing = client.listContainer(containerId, token);
      if (listing.getState() != ContainerState.CONTAINER_CLOSED) {
        throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "the replica of container " + containerId
            + " on " + source + " is " + listing.getState() + ", not CLOSED");
      }
      List<BlockData> copied = new ArrayList<>();
      for (BlockData block : listing.getBlocksList()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedIOException("the copy of container " + containerId + " was stopped");
        }
        if (copyBlock(client, block, token, copy)) {
          copied.add(block);
        }
      }
      ContainerDescriptor.Builder descriptor = ContainerDescriptor.newBuilder();
      if (listing.hasEc()) {
        // A copy of an erasure-coded replica holds the same index.
        descriptor.setEc(listing.getEc()).setReplicaIndex(listing.getReplicaIndex());
      }
      return new Copied(descriptor.setLayoutVersion(Container.LAYOUT_VERSION).setContainerId(containerId)
          .setState(ContainerState.CONTAINER_CLOSED).setBcsid(listing.getBcsid()).build(), copied);
    }
  }

  /**
   * Copies one block, verified, into the staging copy and syncs it; false when the source deleted the block
   * after listing it (SCM deleted it meanwhile: it needs no copy).
   */
  private static boolean copyBlock(BlockReadClient client, BlockData block, BlockToken token,
      ContainerCopies.Staging copy) throws IOException, DatanodeException {
    Path file = copy.blockFile(block.getBlockId().getLocalId());
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      client.read(block.getBlockId(), 0, block.getLength(), token, verified -> write(out, verified));
      out.force(true);
      return true;
    } catch (DatanodeException e) {
      if (e.result() != DatanodeResult.NO_SUCH_BLOCK) {
        throw e;
      }
      Files.deleteIfExists(file);
      return false;
    }
  }

  private static void write(FileChannel out, ByteBuffer verified) {
    try {
      while (verified.hasRemaining()) {
        out.write(verified);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
