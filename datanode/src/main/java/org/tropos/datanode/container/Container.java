package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.tropos.common.io.AtomicFiles;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;

/**
 * One container replica on a data volume:
 * <pre>
 * containerDir&lt;k&gt;/&lt;id&gt;/metadata/&lt;id&gt;.container   descriptor (layout 1)
 * containerDir&lt;k&gt;/&lt;id&gt;/chunks/&lt;localId&gt;.block    FILE_PER_BLOCK: the block's bytes, nothing else
 * </pre>
 *
 * <p>Thread-safety: the descriptor is replaced under the container's monitor; block files are written by the
 * pipeline's apply thread only. Committing a block, deleting blocks and leaving OPEN are serialised by
 * {@link #blockLock()} (taken before the monitor), so a deletion and a commit of the same block cannot interleave.
 */
final class Container {
  static final int LAYOUT_VERSION = 1;

  private final Path dir;
  private final VolumeDb db;
  private final Object blockLock = new Object();
  private ContainerDescriptor descriptor;
  /** The highest bcsid committed so far; written into the descriptor when the state changes. */
  private long bcsid;
  /** Committed blocks and their bytes, counted when the replica is loaded and kept up to date since. */
  private long blockCount;
  private long usedBytes;

  Container(Path dir, VolumeDb db, ContainerDescriptor descriptor) {
    this.dir = dir;
    this.db = db;
    this.descriptor = descriptor;
    this.bcsid = descriptor.getBcsid();
  }

  synchronized void committed(long blockBcsid) {
    bcsid = Math.max(bcsid, blockBcsid);
  }

  /** Counts a block committed ({@code bytes} > 0) or deleted (negative). */
  synchronized void counted(long blocks, long bytes) {
    blockCount += blocks;
    usedBytes += bytes;
  }

  synchronized long blockCount() {
    return blockCount;
  }

  synchronized long usedBytes() {
    return usedBytes;
  }

  Path dir() {
    return dir;
  }

  synchronized long bcsid() {
    return bcsid;
  }

  static Path descriptorFile(Path dir, long id) {
    return dir.resolve("metadata").resolve(id + ".container");
  }

  static Container create(Path dir, VolumeDb db, ContainerDescriptor descriptor) throws IOException {
    Files.createDirectories(dir.resolve("chunks"));
    Container container = new Container(dir, db, descriptor);
    container.save(descriptor);
    // The new directories' names, as save made the descriptor's durable: the container's in its parent, chunks and
    // metadata in it. (The parent, containerDirN, is made once per volume and left to the file system's journal.)
    AtomicFiles.syncDirectory(dir);
    AtomicFiles.syncDirectory(dir.getParent());
    return container;
  }

  /** The replicas under a volume's {@code current} directory, their committed blocks counted from {@code db}. */
  static List<Container> loadAll(Path current, VolumeDb db) throws IOException {
    if (!Files.isDirectory(current)) {
      return List.of();
    }
    List<Container> loaded = new ArrayList<>();
    try (Stream<Path> files = Files.find(current, 4, (p, a) -> p.toString().endsWith(".container"))) {
      for (Path file : files.toList()) {
        ContainerDescriptor d = readDescriptor(file);
        Container container = new Container(file.getParent().getParent(), db, d);
        for (BlockData block : db.blocks(d.getContainerId())) {
          container.counted(1, block.getLength());
        }
        loaded.add(container);
      }
    }
    return loaded;
  }

  static ContainerDescriptor readDescriptor(Path file) throws IOException {
    ContainerDescriptor d = ContainerDescriptor.parseFrom(Files.readAllBytes(file));
    if (d.getLayoutVersion() > LAYOUT_VERSION) {
      throw new IOException(file + " has layout " + d.getLayoutVersion() + "; this version reads up to "
          + LAYOUT_VERSION);
    }
    return d;
  }

  synchronized ContainerDescriptor descriptor() {
    return descriptor;
  }

  synchronized void save(ContainerDescriptor updated) throws IOException {
    ContainerDescriptor withBcsid = updated.toBuilder().setBcsid(Math.max(bcsid, updated.getBcsid())).build();
    AtomicFiles.write(descriptorFile(dir, updated.getContainerId()), withBcsid.toByteArray());
    descriptor = withBcsid;
  }

  /** Records that every block was just verified; against the current descriptor, so no state change is lost. */
  synchronized void recordDataScan(long epochMs) throws IOException {
    save(descriptor.toBuilder().setDataScanEpochMs(epochMs).build());
  }

  /** What the replica is, for SCM. */
  ContainerReport report() {
    ContainerDescriptor d = descriptor();
    return ContainerReport.newBuilder().setContainerId(d.getContainerId()).setState(d.getState()).setBcsid(bcsid())
        .setPipelineId(d.getPipelineId()).setBlockCount(blockCount()).setUsedBytes(usedBytes())
        .setDataScanEpochMs(d.getDataScanEpochMs()).setDeleteTxId(d.getDeleteTxId())
        .setReplicaIndex(d.getReplicaIndex()).build();
  }

  /** Records that the deletion transaction {@code txId} was carried out, unless a later one already was. */
  synchronized void recordDeletion(long txId) throws IOException {
    if (txId > descriptor.getDeleteTxId()) {
      save(descriptor.toBuilder().setDeleteTxId(txId).build());
    }
  }

  boolean isOpen() {
    return descriptor().getState() == ContainerState.CONTAINER_OPEN;
  }

  Path blockFile(long localId) {
    return chunksDir().resolve(localId + ".block");
  }

  Path chunksDir() {
    return dir.resolve("chunks");
  }

  VolumeDb db() {
    return db;
  }

  /** Held while a block is committed or deleted, and while the container leaves OPEN. */
  Object blockLock() {
    return blockLock;
  }
}
