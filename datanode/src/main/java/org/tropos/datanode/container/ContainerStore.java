package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.io.AtomicFiles;
import org.tropos.common.io.FileTrees;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Closer;
import org.tropos.common.util.TransitionTable;
import org.tropos.datanode.volume.OutOfSpace;
import org.tropos.datanode.volume.StorageDirectory;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineId;

/**
 * The container replicas on this datanode's data volumes and the blocks in them. Chunk data is checked against
 * the client's checksums before it is written; a block becomes readable when PutBlock commits its length and
 * checksums (after the block file is synced). New containers go to the healthy volume with the most free space.
 * Blocks are deleted when SCM says so ({@link #deleteBlocks}).
 *
 * <p>Thread-safety: containers are in a concurrent map; chunks are written on a pipeline's chunk writers, the
 * writes of one block file taking turns, and blocks are committed on its apply thread; reads may come from any
 * thread and only see committed blocks. Deletions come from the datanode's
 * deletion thread; a container's block lock keeps them apart from commits and from the container's close.
 */
public final class ContainerStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerStore.class);
  private static final int CONTAINERS_PER_DIR_SHIFT = 10;

  private final String nodeName;
  private final String clusterId;
  private final List<StorageDirectory> volumes;
  private final Map<Path, VolumeDb> dbs = new HashMap<>();
  private final Map<Long, Container> containers = new ConcurrentHashMap<>();
  private final DirectIo directIo;
  /** Writes of one block file take turns: a tail written past the page cache must see the file as it is. */
  private final BlockWriteLocks writeLocks = new BlockWriteLocks();
  private final VolumeMeters meters;

  /** A store that writes every chunk through the page cache. */
  public ContainerStore(String nodeName, String clusterId, List<StorageDirectory> volumes) {
    this(nodeName, clusterId, volumes, DirectIo.OFF);
  }

  /** @param directIo which chunks are written past the page cache */
  public ContainerStore(String nodeName, String clusterId, List<StorageDirectory> volumes, DirectIo directIo) {
    this(nodeName, clusterId, volumes, directIo, VolumeMeters.NONE);
  }

  /** @param meters counts the bytes written to each volume */
  public ContainerStore(String nodeName, String clusterId, List<StorageDirectory> volumes, DirectIo directIo,
      VolumeMeters meters) {
    this.nodeName = nodeName;
    this.clusterId = clusterId;
    this.volumes = List.copyOf(volumes);
    this.directIo = directIo;
    this.meters = meters;
  }

  /**
   * Opens each healthy volume's block database, loads the containers on it (counting their blocks) and removes
   * what an interrupted container copy left ({@link ContainerCopies}).
   */
  public void open() throws IOException {
    for (StorageDirectory volume : volumes) {
      if (volume.isHealthy()) {
        Path root = clusterRoot(volume);
        VolumeDb db = VolumeDb.open(root.resolve("container.db"));
        dbs.put(volume.path(), db);
        load(root.resolve("current"), db);
        ContainerCopies.removeUnfinished(root, db, containers.keySet());
      }
    }
    LOG.info("{}: {} containers on {} volumes", nodeName, containers.size(), dbs.size());
  }

  private void load(Path current, VolumeDb db) throws IOException {
    if (!Files.isDirectory(current)) {
      return;
    }
    try (Stream<Path> files = Files.find(current, 4, (p, a) -> p.toString().endsWith(".container"))) {
      for (Path file : files.toList()) {
        ContainerDescriptor d = Container.readDescriptor(file);
        Container container = new Container(file.getParent().getParent(), db, d);
        for (BlockData block : db.blocks(d.getContainerId())) {
          container.counted(1, block.getLength());
        }
        containers.put(d.getContainerId(), container);
      }
    }
  }

  /** Creates an OPEN container replica for {@code pipeline}; creating one that exists is a no-op. */
  public synchronized ContainerDescriptor create(long containerId, PipelineId pipeline) throws DatanodeException {
    Container existing = containers.get(containerId);
    if (existing != null) {
      return existing.descriptor();
    }
    StorageDirectory volume = emptiestVolume();
    Path dir = containerDir(clusterRoot(volume), containerId);
    ContainerDescriptor d = ContainerDescriptor.newBuilder().setLayoutVersion(Container.LAYOUT_VERSION)
        .setContainerId(containerId).setState(ContainerState.CONTAINER_OPEN).setPipelineId(pipeline).build();
    try {
      containers.put(containerId, Container.create(dir, dbs.get(volume.path()), d));
    } catch (IOException e) {
      throw ioError("create container " + containerId, e);
    }
    LOG.info("{}: container {} created in {}", nodeName, containerId, dir);
    return d;
  }

  /** False if the container exists and is not OPEN (a container not created yet will be, OPEN). */
  public boolean acceptsWrites(long containerId) {
    Container container = containers.get(containerId);
    return container == null || container.isOpen();
  }

  /**
   * Refuses a new write to {@code containerId} (DISK_FULL) when the volume holding it, or for a container not
   * created yet the volume it would go to, has no more than its reserve available. Only a pipeline's leader asks,
   * before it accepts a write: the followers write what it accepted into their reserve
   * (hdds.datanode.volume.min.free.space) while SCM closes the pipelines of a node without room.
   */
  public void checkRoom(long containerId) throws DatanodeException {
    Container container = containers.get(containerId);
    StorageDirectory volume = container == null ? emptiestVolume() : volumeOf(container);
    if (!volume.hasRoom()) {
      throw new DatanodeException(DatanodeResult.DISK_FULL, nodeName + ": volume " + volume.path() + " has "
          + volume.availableBytes() + " bytes free, no more than the " + volume.reservedBytes()
          + " kept back for writes already accepted (hdds.datanode.volume.min.free.space)");
    }
  }

  private StorageDirectory volumeOf(Container container) {
    return volumes.stream().filter(v -> container.dir().startsWith(v.path())).findFirst()
        .orElseThrow(() -> new IllegalStateException("container " + container.descriptor().getContainerId()
            + " lies outside every volume: " + container.dir()));
  }

  /** Writes {@code data} at {@code offset} of the block after checking it against {@code checksums}. */
  public void writeChunk(BlockId block, long offset, ByteBuffer data, ChecksumData checksums)
      throws DatanodeException {
    Container container = openContainer(block.getContainerId());
    if (offset % checksums.getBytesPerChecksum() != 0) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "chunk offset " + offset
          + " is not a multiple of bytes per checksum " + checksums.getBytesPerChecksum());
    }
    int direct = directIo.directBytes(offset, data.remaining());
    // A chunk past the page cache is staged in aligned memory anyway, so its checksums are read there: on the
    // Raft entry's read-only heap bytes CRC32C copied each piece through a small array (1 % of a large PUT).
    ByteBuffer source = direct > 0 ? directIo.stage(data) : data;
    int bad = Checksums.firstMismatch(source, checksums);
    if (bad >= 0) {
      throw new DatanodeException(DatanodeResult.CHECKSUM_MISMATCH, "chunk of block " + name(block) + " at "
          + offset + " does not match its checksum at byte " + (offset + (long) bad * checksums.getBytesPerChecksum()));
    }
    Path path = container.blockFile(block.getLocalId());
    meters.written(path, source.remaining());
    synchronized (writeLocks.of(block)) {
      write(block, path, offset, source, direct);
    }
  }

  private void write(BlockId block, Path path, long offset, ByteBuffer source, int direct) throws DatanodeException {
    int written = 0;
    if (direct > 0) {
      try {
        written = directIo.write(path, offset, source, direct);
      } catch (IOException e) {
        directIo.failed(path, e);
      }
    }
    if (written == source.remaining()) {
      return;
    }
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ByteBuffer view = source.slice(source.position() + written, source.remaining() - written);
      long at = offset + written;
      while (view.hasRemaining()) {
        at += file.write(view, at);
      }
    } catch (IOException e) {
      throw ioError("write block " + name(block), e);
    }
  }

  /**
   * Reads back written (not necessarily committed) bytes of a block: Ratis asks for a chunk's data when it must
   * resend an entry to a follower and no longer holds it.
   */
  public ByteBuffer readChunk(BlockId block, long offset, int length) throws DatanodeException {
    Container container = container(block.getContainerId());
    ByteBuffer data = ByteBuffer.allocate(length);
    try (FileChannel file = FileChannel.open(container.blockFile(block.getLocalId()), StandardOpenOption.READ)) {
      while (data.hasRemaining()) {
        if (file.read(data, offset + data.position()) < 0) {
          throw new DatanodeException(DatanodeResult.RANGE_OUT_OF_BOUNDS, "chunk " + offset + "+" + length
              + " of block " + name(block) + " was never written");
        }
      }
    } catch (IOException e) {
      throw ioError("read back a chunk of block " + name(block), e);
    }
    return data.flip();
  }

  /** Whether the block was deleted while its container was OPEN (see {@link #deleteBlocks}). */
  public boolean wasDeleted(BlockId block) {
    Container container = containers.get(block.getContainerId());
    try {
      return container != null && container.db().wasDeleted(block);
    } catch (IOException e) {
      LOG.warn("{}: cannot tell whether block {} was deleted: {}", nodeName, name(block), e.toString());
      return false;
    }
  }

  /**
   * Makes every committed block's record durable on every volume: before a snapshot lets Ratis forget the log
   * entries that carry them (VolumeDb#put).
   */
  public void flushBlockRecords() throws DatanodeException {
    for (Map.Entry<Path, VolumeDb> db : dbs.entrySet()) {
      try {
        db.getValue().flush();
      } catch (IOException e) {
        throw ioError("flush the block records of volume " + db.getKey(), e);
      }
    }
  }

  /**
   * Forces a block file's written bytes to disk. A block deleted since it was written (its file or its container
   * gone) has nothing left to force.
   */
  public void sync(BlockId block) throws DatanodeException {
    Container container = containers.get(block.getContainerId());
    if (container == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(container.blockFile(block.getLocalId()), StandardOpenOption.WRITE)) {
      FaultPoints.hit(FaultPoints.CHUNK_FSYNC);
      channel.force(true);
    } catch (NoSuchFileException e) {
      LOG.debug("{}: block {} was deleted before its bytes were forced", nodeName, name(block));
    } catch (IOException e) {
      throw ioError("sync block " + name(block), e);
    }
  }

  /**
   * Commits a block: records its length and checksums; readable from now on. Its bytes must be on disk already
   * ({@link #sync}: the pipeline's state machine forces them before it commits).
   */
  public BlockData putBlock(BlockData block) throws DatanodeException {
    Container container = openContainer(block.getBlockId().getContainerId());
    Path file = container.blockFile(block.getBlockId().getLocalId());
    long pieces = Checksums.pieces(block.getLength(), block.getChecksums().getBytesPerChecksum());
    if (Checksums.count(block.getChecksums()) != pieces) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + name(block.getBlockId()) + " of "
          + block.getLength() + " bytes needs " + pieces + " checksums, got " + Checksums.count(block.getChecksums()));
    }
    try {
      synchronized (container.blockLock()) {
        if (container.db().wasDeleted(block.getBlockId())) {
          // Chunks written after the deletion (by a replica lagging behind its pipeline) go too.
          Files.deleteIfExists(file);
          throw new DatanodeException(DatanodeResult.NO_SUCH_BLOCK, "block " + name(block.getBlockId())
              + " was deleted on " + nodeName + "; it is not committed again");
        }
        commit(container, file, block);
      }
    } catch (IOException e) {
      throw ioError("commit block " + name(block.getBlockId()), e);
    }
    return block;
  }

  private static void commit(Container container, Path file, BlockData block) throws IOException, DatanodeException {
    long written = writtenBytes(file);
    if (written < block.getLength()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + name(block.getBlockId()) + " has "
          + written + " bytes written, fewer than the " + block.getLength() + " being committed");
    }
    BlockData before = container.db().get(block.getBlockId());
    container.db().put(block);
    container.committed(block.getBcsid());
    container.counted(before == null ? 1 : 0, block.getLength() - (before == null ? 0 : before.getLength()));
  }

  /**
   * The bytes in a block's file, read from its attributes (opening and closing the file was a quarter of a
   * commit's CPU in a profile of 100 KiB PUTs); an empty block has no chunk that created its file, so it is
   * created here.
   */
  private static long writtenBytes(Path file) throws IOException {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        throw new IOException(file + " is not a regular file");
      }
      return attributes.size();
    } catch (NoSuchFileException e) {
      Files.newByteChannel(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
      return 0;
    }
  }

  /**
   * Deletes blocks of a container replica: their metadata first (synced), so no reader finds a block without its
   * file, then their files. Idempotent: a block that is not here counts as deleted, and so does every block of a
   * container this datanode does not hold. While the container is OPEN the blocks are also remembered as deleted,
   * so a PutBlock of one applied later (by a replica lagging behind its pipeline, or when Ratis replays its log
   * after a restart) does not bring it back; that record goes when the container leaves OPEN, after which no
   * PutBlock applies to it.
   *
   * @return false if this datanode holds no replica of the container
   */
  public boolean deleteBlocks(long containerId, List<Long> localIds) throws DatanodeException {
    Container container = containers.get(containerId);
    if (container == null) {
      return false;
    }
    try {
      synchronized (container.blockLock()) {
        for (long localId : localIds) {
          BlockData gone = container.db().get(BlockId.newBuilder().setContainerId(containerId).setLocalId(localId)
              .build());
          if (gone != null) {
            container.counted(-1, -gone.getLength());
          }
        }
        container.db().delete(containerId, localIds, container.isOpen());
      }
      for (long localId : localIds) {
        Files.deleteIfExists(container.blockFile(localId));
      }
      AtomicFiles.syncDirectory(container.chunksDir());
    } catch (IOException e) {
      throw ioError("delete blocks of container " + containerId, e);
    }
    return true;
  }

  public BlockData getBlock(BlockId id) throws DatanodeException {
    Container container = container(id.getContainerId());
    try {
      BlockData block = container.db().get(id);
      if (block == null) {
        throw new DatanodeException(DatanodeResult.NO_SUCH_BLOCK, "no block " + name(id) + " on " + nodeName);
      }
      return block;
    } catch (IOException e) {
      throw ioError("read block metadata " + name(id), e);
    }
  }

  /** The bytes and checksums to send for {@code length} bytes at {@code offset}, widened to whole pieces. */
  public ReadPlan planRead(BlockId id, long offset, long length) throws DatanodeException {
    BlockData block = getBlock(id);
    if (offset < 0 || length < 0 || offset + length > block.getLength()) {
      throw new DatanodeException(DatanodeResult.RANGE_OUT_OF_BOUNDS, "range " + offset + "+" + length
          + " is outside block " + name(id) + " of " + block.getLength() + " bytes");
    }
    int bpc = block.getChecksums().getBytesPerChecksum();
    long start = offset - offset % bpc;
    long end = Math.min(block.getLength(), (offset + length + bpc - 1) / bpc * bpc);
    ChecksumData sums = Checksums.slice(block.getChecksums(), (int) (start / bpc), Checksums.pieces(end, bpc));
    return new ReadPlan(container(id.getContainerId()).blockFile(id.getLocalId()), start, end - start, sums,
        block.getLength());
  }

  /** Moves a container replica to {@code state} (CLOSING, CLOSED or QUASI_CLOSED). */
  public ContainerDescriptor setState(long containerId, ContainerState state) throws DatanodeException {
    return setState(containerId, state, "");
  }

  /**
   * Marks a replica UNHEALTHY (a check found it corrupt or incomplete): it is reported so, SCM replaces it, and it
   * takes no more writes.
   */
  public void markUnhealthy(long containerId, String reason) throws DatanodeException {
    LOG.error("{}: container {} is UNHEALTHY: {}", nodeName, containerId, reason);
    setState(containerId, ContainerState.CONTAINER_UNHEALTHY, reason);
  }

  private ContainerDescriptor setState(long containerId, ContainerState state, String reason)
      throws DatanodeException {
    Container container = container(containerId);
    ContainerDescriptor updated;
    try {
      synchronized (container.blockLock()) {
        ContainerState from = container.descriptor().getState();
        try {
          ReplicaStates.TABLE.check(containerId + " on " + nodeName, from, state);
        } catch (TransitionTable.IllegalTransitionException e) {
          throw new DatanodeException(DatanodeResult.INVALID_REQUEST, e.getMessage());
        }
        updated = container.descriptor().toBuilder().setState(state).setUnhealthyReason(reason).build();
        boolean leavesOpen = container.isOpen() && state != ContainerState.CONTAINER_OPEN;
        if (leavesOpen) {
          // Its block records must be durable before it takes no more commits: a replay of one after a crash
          // would be refused by the no longer OPEN container (VolumeDb#put).
          container.db().flushLeavingOpen(containerId);
        }
        container.save(updated);
        if (leavesOpen) {
          container.db().forgetDeleted(containerId);
        }
      }
    } catch (IOException e) {
      throw ioError("record container " + containerId + " as " + state, e);
    }
    LOG.info("{}: container {} is {}", nodeName, containerId, state);
    return updated;
  }

  /** A report of every container replica, for SCM. */
  public List<ContainerReport> reports() {
    List<ContainerReport> reports = new ArrayList<>();
    containers.values().forEach(c -> {
      ContainerDescriptor d = c.descriptor();
      reports.add(ContainerReport.newBuilder().setContainerId(d.getContainerId()).setState(d.getState())
          .setBcsid(c.bcsid()).setPipelineId(d.getPipelineId()).setBlockCount(c.blockCount())
          .setUsedBytes(c.usedBytes()).setDataScanEpochMs(d.getDataScanEpochMs()).build());
    });
    return reports;
  }

  /** Closes an open replica locally as QUASI_CLOSED (its pipeline is gone); others are left as they are. */
  public void quasiClose(long containerId) throws DatanodeException {
    Container container = container(containerId);
    ContainerState state = container.descriptor().getState();
    if (state == ContainerState.CONTAINER_OPEN || state == ContainerState.CONTAINER_CLOSING) {
      setState(containerId, ContainerState.CONTAINER_QUASI_CLOSED);
    }
  }

  /**
   * Closes a QUASI_CLOSED replica as CLOSED without its (gone) pipeline: SCM found it holds the most of the
   * container's writes. Only a QUASI_CLOSED replica is closed so: one still OPEN may still be applying writes.
   */
  public void forceClose(long containerId) throws DatanodeException {
    ContainerState state = container(containerId).descriptor().getState();
    if (state == ContainerState.CONTAINER_QUASI_CLOSED) {
      setState(containerId, ContainerState.CONTAINER_CLOSED);
    } else if (state != ContainerState.CONTAINER_CLOSED) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "container " + containerId + " on " + nodeName
          + " is " + state + ": only a QUASI_CLOSED replica is closed without its pipeline");
    }
  }

  /**
   * What a copy of a container needs: its state, bcsid and every block's record. Only for a replica that takes
   * no more writes (what it holds then changes only by block deletions).
   */
  public ContainerListing listing(long containerId) throws DatanodeException {
    Container container = container(containerId);
    ContainerDescriptor d = container.descriptor();
    if (container.isOpen() || d.getState() == ContainerState.CONTAINER_CLOSING) {
      throw new DatanodeException(DatanodeResult.CONTAINER_NOT_OPEN, "container " + containerId + " on " + nodeName
          + " is " + d.getState() + ": only a closed replica is copied");
    }
    try {
      return ContainerListing.newBuilder().setState(d.getState()).setBcsid(container.bcsid())
          .addAllBlocks(container.db().blocks(containerId)).build();
    } catch (IOException e) {
      throw ioError("list the blocks of container " + containerId, e);
    }
  }

  /** Whether this datanode holds a replica of the container. */
  public boolean holds(long containerId) {
    return containers.containsKey(containerId);
  }

  /** The state of this datanode's replica of the container, or UNSPECIFIED if it holds none. */
  public ContainerState state(long containerId) {
    Container container = containers.get(containerId);
    return container == null ? ContainerState.CONTAINER_STATE_UNSPECIFIED : container.descriptor().getState();
  }

  /**
   * Where a copy of a container is put together before it is adopted: a fresh directory on the healthy volume
   * with the most free space, outside the directories loaded at start.
   */
  ContainerCopies.Staging stage(long containerId) throws DatanodeException {
    StorageDirectory volume = emptiestVolume();
    Path root = clusterRoot(volume);
    try {
      return ContainerCopies.Staging.create(root, dbs.get(volume.path()), containerId);
    } catch (IOException e) {
      throw ioError("prepare a copy of container " + containerId, e);
    }
  }

  /**
   * Makes a staged, verified copy this datanode's replica: its blocks are recorded, then its directory is moved
   * into place in one rename, then it is served and reported. A replica that arrived meanwhile wins; the copy
   * is discarded.
   */
  synchronized void adopt(ContainerCopies.Staging copy, ContainerDescriptor descriptor, List<BlockData> blocks)
      throws DatanodeException {
    long id = descriptor.getContainerId();
    try {
      if (containers.containsKey(id)) {
        copy.discard();
        return;
      }
      Path dir = containerDir(copy.root(), id);
      copy.db().putAll(blocks);
      Container container = copy.moveInto(dir, descriptor);
      blocks.forEach(b -> container.counted(1, b.getLength()));
      containers.put(id, container);
    } catch (IOException e) {
      throw ioError("adopt the copy of container " + id, e);
    }
    LOG.info("{}: container {} copied in ({} blocks, {} bytes)", nodeName, id, blocks.size(),
        blocks.stream().mapToLong(BlockData::getLength).sum());
  }

  /**
   * Deletes this datanode's replica of a container, blocks and all (it is extra, unhealthy or outdated). A
   * replica that takes writes is kept: its pipeline's Raft group still writes to it.
   *
   * @return false if this datanode holds no replica of it
   */
  public boolean deleteContainer(long containerId) throws DatanodeException {
    Container container = containers.get(containerId);
    if (container == null) {
      return false;
    }
    if (container.isOpen()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "container " + containerId + " on " + nodeName
          + " is OPEN: it is not deleted");
    }
    try {
      synchronized (container.blockLock()) {
        containers.remove(containerId);
        container.db().deleteContainer(containerId);
      }
      FileTrees.delete(container.dir());
    } catch (IOException e) {
      throw ioError("delete container " + containerId, e);
    }
    LOG.info("{}: container {} deleted", nodeName, containerId);
    return true;
  }

  /**
   * The replicas on a volume that no longer change but by block deletions (CLOSED and QUASI_CLOSED): what the
   * scrubber checks.
   */
  List<Container> scrubbable(Path volume) {
    return containers.values().stream().filter(c -> c.dir().startsWith(volume)).filter(c -> {
      ContainerState state = c.descriptor().getState();
      return state == ContainerState.CONTAINER_CLOSED || state == ContainerState.CONTAINER_QUASI_CLOSED;
    }).toList();
  }

  /** The bytes of the committed blocks on each volume the store serves. */
  public Map<Path, Long> blockBytesPerVolume() {
    Map<Path, Long> bytes = new HashMap<>();
    for (Path volume : openVolumes()) {
      bytes.put(volume, containers.values().stream().filter(c -> c.dir().startsWith(volume))
          .mapToLong(Container::usedBytes).sum());
    }
    return bytes;
  }

  /** The data volumes whose containers are served (healthy when the store opened). */
  List<Path> openVolumes() {
    return List.copyOf(dbs.keySet());
  }

  /** Whether {@code container} is still this datanode's replica of its id (not deleted, not replaced by a copy). */
  boolean isCurrent(Container container) {
    return containers.get(container.descriptor().getContainerId()) == container;
  }

  public List<ContainerDescriptor> containers() {
    List<ContainerDescriptor> all = new ArrayList<>();
    containers.values().forEach(c -> all.add(c.descriptor()));
    all.sort(Comparator.comparingLong(ContainerDescriptor::getContainerId));
    return all;
  }

  private Container openContainer(long id) throws DatanodeException {
    Container container = container(id);
    if (!container.isOpen()) {
      throw new DatanodeException(DatanodeResult.CONTAINER_NOT_OPEN, "container " + id + " is "
          + container.descriptor().getState());
    }
    return container;
  }

  private Container container(long id) throws DatanodeException {
    Container container = containers.get(id);
    if (container == null) {
      throw new DatanodeException(DatanodeResult.NO_SUCH_CONTAINER, "no container " + id + " on " + nodeName);
    }
    return container;
  }

  /** The healthy volume with the most free space: where a new or copied container goes. */
  private StorageDirectory emptiestVolume() throws DatanodeException {
    return volumes.stream().filter(v -> v.isHealthy() && dbs.containsKey(v.path()))
        .max(Comparator.comparingLong(v -> v.path().toFile().getUsableSpace()))
        .orElseThrow(() -> new DatanodeException(DatanodeResult.DISK_FULL, nodeName + " has no healthy volume"));
  }

  private static Path containerDir(Path clusterRoot, long id) {
    return clusterRoot.resolve("current").resolve("containerDir" + (id >> CONTAINERS_PER_DIR_SHIFT))
        .resolve(Long.toString(id));
  }

  private Path clusterRoot(StorageDirectory volume) {
    return volume.path().resolve("tropos").resolve(clusterId);
  }

  private static String name(BlockId id) {
    return id.getContainerId() + "/" + id.getLocalId();
  }

  /** DISK_FULL for a file system out of space, else IO_ERROR. */
  private DatanodeException ioError(String what, IOException e) {
    LOG.error("{}: cannot {}", nodeName, what, e);
    DatanodeResult result = OutOfSpace.causes(e) ? DatanodeResult.DISK_FULL : DatanodeResult.IO_ERROR;
    return new DatanodeException(result, nodeName + " cannot " + what + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    Closer.closeAll(nodeName + " container store", dbs.values().toArray(new AutoCloseable[0]));
    dbs.clear();
  }
}
