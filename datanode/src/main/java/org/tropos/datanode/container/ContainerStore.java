package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.io.FileTrees;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Closer;
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
 * The container replicas on this datanode's data volumes and the blocks in them: which replicas there are, and the
 * entry to their parts. Chunk data is checked against the client's checksums before it is written
 * ({@link ChunkFiles}); a block becomes readable when PutBlock commits its length and checksums after the block
 * file is synced ({@link BlockRecords}); replicas move between states by {@link ReplicaLifecycle}; new containers
 * go to the healthy volume with the most free space ({@link VolumeChoice}). Blocks are deleted when SCM says so
 * ({@link #deleteBlocks}).
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
  private final VolumeChoice volumeChoice;
  private final ChunkFiles chunks;
  private final BlockRecords blocks;
  private final ReplicaLifecycle lifecycle;
  /** Told when a replica changes state or is copied in (see {@link #onReplicasChanged}). */
  private volatile Runnable replicasChanged = () -> { };

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
    this.chunks = new ChunkFiles(nodeName, directIo, meters);
    this.blocks = new BlockRecords(nodeName);
    this.lifecycle = new ReplicaLifecycle(nodeName, () -> replicasChanged.run());
    this.volumeChoice = new VolumeChoice(nodeName, volumes, v -> dbs.containsKey(v.path()));
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
        for (Container container : Container.loadAll(root.resolve("current"), db)) {
          containers.put(container.descriptor().getContainerId(), container);
        }
        ContainerCopies.removeUnfinished(root, db, containers.keySet());
      }
    }
    LOG.info("{}: {} containers on {} volumes", nodeName, containers.size(), dbs.size());
  }

  /** Creates an OPEN container replica for {@code pipeline}; creating one that exists is a no-op. */
  public ContainerDescriptor create(long containerId, PipelineId pipeline) throws DatanodeException {
    return create(ContainerDescriptor.newBuilder().setContainerId(containerId).setPipelineId(pipeline));
  }

  /**
   * Creates an OPEN container replica as {@code template} describes it (its id, and its pipeline or erasure-coded
   * index); one that exists is returned as it is.
   */
  public synchronized ContainerDescriptor create(ContainerDescriptor.Builder template) throws DatanodeException {
    long containerId = template.getContainerId();
    Container existing = containers.get(containerId);
    if (existing != null) {
      return existing.descriptor();
    }
    StorageDirectory volume = volumeChoice.emptiest();
    Path dir = containerDir(clusterRoot(volume), containerId);
    ContainerDescriptor d = template.setLayoutVersion(Container.LAYOUT_VERSION)
        .setState(ContainerState.CONTAINER_OPEN).build();
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
    volumeChoice.checkRoom(containers.get(containerId));
  }

  /** Writes {@code data} at {@code offset} of the block after checking it against {@code checksums}. */
  public void writeChunk(BlockId block, long offset, ByteBuffer data, ChecksumData checksums)
      throws DatanodeException {
    chunks.write(openContainer(block.getContainerId()), block, offset, data, checksums);
  }

  /**
   * Reads back written (not necessarily committed) bytes of a block: Ratis asks for a chunk's data when it must
   * resend an entry to a follower and no longer holds it.
   */
  public ByteBuffer readChunk(BlockId block, long offset, int length) throws DatanodeException {
    return chunks.read(container(block.getContainerId()), block, offset, length);
  }

  /** Whether the block was deleted while its container was OPEN (see {@link #deleteBlocks}). */
  public boolean wasDeleted(BlockId block) {
    Container container = containers.get(block.getContainerId());
    return container != null && blocks.wasDeleted(container, block);
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
    if (container != null) {
      chunks.sync(container, block);
    }
  }

  /**
   * Commits a block: records its length and checksums; readable from now on. Its bytes must be on disk already
   * ({@link #sync}: the pipeline's state machine forces them before it commits).
   */
  public BlockData putBlock(BlockData block) throws DatanodeException {
    return blocks.put(openContainer(block.getBlockId().getContainerId()), block);
  }

  /**
   * Deletes blocks of a container replica: their metadata first (synced), so no reader finds a block without its
   * file, then their files. Idempotent: a block that is not here counts as deleted; a container this datanode does
   * not hold is left to the caller (false). While the container is OPEN the blocks are also remembered as deleted,
   * so a PutBlock of one applied later (by a replica lagging behind its pipeline, or when Ratis replays its log
   * after a restart) does not bring it back; that record goes when the container leaves OPEN, after which no
   * PutBlock applies to it. The replica then records {@code txId} as the highest deletion it carried out (it
   * reports it, so SCM can tell a replica that was away while deletions finished).
   *
   * @param txId the highest id of SCM's deletion transactions these blocks come from
   * @return false if this datanode holds no replica of the container
   */
  public boolean deleteBlocks(long containerId, List<Long> localIds, long txId) throws DatanodeException {
    Container container = containers.get(containerId);
    if (container == null) {
      return false;
    }
    blocks.delete(container, containerId, localIds, txId);
    return true;
  }

  public BlockData getBlock(BlockId id) throws DatanodeException {
    return blocks.get(container(id.getContainerId()), id);
  }

  /** The bytes and checksums to send for {@code length} bytes at {@code offset}, widened to whole pieces. */
  public ReadPlan planRead(BlockId id, long offset, long length) throws DatanodeException {
    return blocks.planRead(container(id.getContainerId()), id, offset, length);
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
    return lifecycle.move(container(containerId), state, reason);
  }

  /** A report of every container replica, for SCM. */
  public List<ContainerReport> reports() {
    return containers.values().stream().map(Container::report).toList();
  }

  /** What this datanode's replica of the container is, if it holds one. */
  public Optional<ContainerDescriptor> descriptor(long containerId) {
    return Optional.ofNullable(containers.get(containerId)).map(Container::descriptor);
  }

  /** Applies a CloseContainer entry of the container's pipeline (a QUASI_CLOSED replica is left to SCM). */
  public void closeThroughPipeline(long containerId) throws DatanodeException {
    lifecycle.closeThroughPipeline(container(containerId));
  }

  /** Closes an open replica locally as QUASI_CLOSED (its pipeline is gone); others are left as they are. */
  public void quasiClose(long containerId) throws DatanodeException {
    lifecycle.quasiClose(container(containerId));
  }

  /**
   * Closes a QUASI_CLOSED replica as CLOSED without its (gone) pipeline: SCM found it holds the most of the
   * container's writes. Only a QUASI_CLOSED replica is closed so: one still OPEN may still be applying writes.
   */
  public void forceClose(long containerId) throws DatanodeException {
    lifecycle.forceClose(container(containerId));
  }

  /**
   * What a copy of a container needs: its state, bcsid and every block's record. Only for a replica that takes
   * no more writes (what it holds then changes only by block deletions).
   */
  public ContainerListing listing(long containerId) throws DatanodeException {
    return blocks.listing(container(containerId));
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
    StorageDirectory volume = volumeChoice.emptiest();
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
    replicasChanged.run();
  }

  /**
   * Calls {@code listener} whenever a replica changes state or a copy is adopted (the datanode then reports to SCM
   * at once rather than at its next heartbeat); it must return at once.
   */
  public void onReplicasChanged(Runnable listener) {
    this.replicasChanged = listener;
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
      chunks.forget(container);
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

  private static Path containerDir(Path clusterRoot, long id) {
    return clusterRoot.resolve("current").resolve("containerDir" + (id >> CONTAINERS_PER_DIR_SHIFT))
        .resolve(Long.toString(id));
  }

  private Path clusterRoot(StorageDirectory volume) {
    return volume.path().resolve("tropos").resolve(clusterId);
  }

  /** A block's name in messages: container/local id. */
  static String name(BlockId id) {
    return id.getContainerId() + "/" + id.getLocalId();
  }

  private DatanodeException ioError(String what, IOException e) {
    return ioError(nodeName, what, e);
  }

  /** DISK_FULL for a file system out of space, else IO_ERROR; logged with {@code node}'s name. */
  static DatanodeException ioError(String node, String what, IOException e) {
    LOG.error("{}: cannot {}", node, what, e);
    DatanodeResult result = OutOfSpace.causes(e) ? DatanodeResult.DISK_FULL : DatanodeResult.IO_ERROR;
    return new DatanodeException(result, node + " cannot " + what + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    Closer.closeAll(nodeName + " container store", dbs.values().toArray(new AutoCloseable[0]));
    dbs.clear();
  }

  /**
   * Closes as a power cut leaves the store: block rows not yet flushed are lost, as they are in a datanode that
   * lost power (they are written without the WAL: the Raft log is theirs until a snapshot). For tests.
   */
  public void closeAsCrashed() throws IOException {
    for (VolumeDb db : dbs.values()) {
      db.closeAsCrashed();
    }
    dbs.clear();
  }
}
