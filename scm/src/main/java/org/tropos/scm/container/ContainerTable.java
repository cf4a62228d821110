package org.tropos.scm.container;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.proto.scm.db.PipelineRecord;
import org.tropos.scm.db.ScmDb;

/**
 * SCM's containers: their records in memory and in the database, the block ids reserved for each, the next
 * container id, and an index of the OPEN containers of each pipeline and of each erasure-coding config (allocation
 * looks there instead of at every container). Some changes are kept in memory only until the next stored one
 * ({@link #keepInMemory}).
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class ContainerTable {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerTable.class);
  private static final String NEXT_CONTAINER_ID = "nextContainerId";

  private final ScmDb db;
  private final Map<Long, ContainerRecord> containers = new HashMap<>();
  /** Per container, the block id up to which ids are reserved in the database. */
  private final Map<Long, Long> reservedLocalIds = new HashMap<>();
  /** OPEN containers by pipeline (a UUID) or, for erasure-coded ones, by config (an EcReplicationConfig). */
  private final Map<Object, Set<Long>> openByWriter = new HashMap<>();
  private long nextContainerId = 1;

  ContainerTable(ScmDb db) {
    this.db = db;
  }

  void load() throws IOException {
    for (ContainerRecord c : db.containers()) {
      put(c);
      reservedLocalIds.put(c.getContainerId(), c.getNextLocalId());
    }
    String next = db.meta(NEXT_CONTAINER_ID);
    nextContainerId = next == null ? 1 : Long.parseLong(next);
    LOG.info("SCM loaded {} containers; next container id {}", containers.size(), nextContainerId);
  }

  ContainerRecord get(long id) {
    return containers.get(id);
  }

  /** Every container (a live view: copy it before changing containers while going through it). */
  Collection<ContainerRecord> all() {
    return containers.values();
  }

  /** Every container id (a live view). */
  Set<Long> ids() {
    return containers.keySet();
  }

  /** The OPEN containers of a pipeline, oldest first. */
  List<ContainerRecord> openOn(UUID pipeline) {
    return openByWriter.getOrDefault(pipeline, Set.of()).stream().map(containers::get).toList();
  }

  /** The OPEN erasure-coded containers of a config, oldest first. */
  List<ContainerRecord> openEc(EcReplicationConfig config) {
    return openByWriter.getOrDefault(config, Set.of()).stream().map(containers::get).toList();
  }

  /** The block id up to which ids of {@code containerId} are reserved in the database (0: none). */
  long reservedUpTo(long containerId) {
    return reservedLocalIds.getOrDefault(containerId, 0L);
  }

  /** Reserves ids of {@code containerId} up to {@code localId}: stored with the container's next save. */
  void reserveUpTo(long containerId, long localId) {
    reservedLocalIds.put(containerId, localId);
  }

  /** A new OPEN container on {@code pipeline}, stored. */
  ContainerRecord create(PipelineRecord pipeline) throws ScmException {
    return create(ContainerRecord.newBuilder().setPipelineId(pipeline.getId())
        .addAllMembers(pipeline.getMembersList()));
  }

  /** A new OPEN erasure-coded container of {@code config} on {@code members} (in replica-index order), stored. */
  ContainerRecord createEc(EcReplicationConfig config, List<UUID> members) throws ScmException {
    return create(ContainerRecord.newBuilder().setEc(config).addAllMembers(members.stream().map(Uuids::toProto)
        .toList()));
  }

  private ContainerRecord create(ContainerRecord.Builder container) throws ScmException {
    long id = nextContainerId++;
    try {
      db.putMeta(NEXT_CONTAINER_ID, Long.toString(nextContainerId));
    } catch (IOException e) {
      throw dbFailure(e);
    }
    ContainerRecord created = container.setContainerId(id).setState(ContainerState.CONTAINER_OPEN)
        .setNextLocalId(1).build();
    save(created);
    return created;
  }

  /** Stores a container, with its next block id no lower than what is reserved. */
  void save(ContainerRecord record) throws ScmException {
    try {
      db.putContainer(withReservation(record));
    } catch (IOException e) {
      throw dbFailure(e);
    }
    put(record);
  }

  /** Stores several containers as one change, as {@link #saveQuietly} does one; on failure none changes. */
  void saveAllQuietly(List<ContainerRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    try {
      db.putContainers(records.stream().map(this::withReservation).toList());
    } catch (IOException e) {
      LOG.error("{} containers stay as they were: {}", records.size(), e.getMessage());
      return;
    }
    records.forEach(this::put);
  }

  private ContainerRecord withReservation(ContainerRecord record) {
    long reserved = reservedUpTo(record.getContainerId());
    return record.getNextLocalId() >= reserved ? record : record.toBuilder().setNextLocalId(reserved).build();
  }

  /** As {@link #save}; a failure is logged and the container stays as it was. */
  void saveQuietly(ContainerRecord record) {
    try {
      save(record);
    } catch (ScmException e) {
      LOG.error("Container {} stays {}: {}", record.getContainerId(), containers.get(record.getContainerId())
          .getState(), e.getMessage());
    }
  }

  /**
   * Changes a container in memory only (allocated bytes, the highest bcsid of an OPEN one): stored with its next
   * {@link #save}, lost in a crash before it. Never a change of state.
   */
  void keepInMemory(ContainerRecord record) {
    put(record);
  }

  /** Removes a container from the database and from memory. */
  void forget(long containerId) throws IOException {
    db.deleteContainer(containerId);
    ContainerRecord gone = containers.remove(containerId);
    if (gone != null) {
      index(gone, false);
    }
  }

  private void put(ContainerRecord record) {
    containers.put(record.getContainerId(), record);
    index(record, record.getState() == ContainerState.CONTAINER_OPEN);
  }

  private void index(ContainerRecord record, boolean open) {
    Object writer = record.hasEc() ? record.getEc() : Uuids.fromProto(record.getPipelineId().getId());
    if (open) {
      openByWriter.computeIfAbsent(writer, p -> new LinkedHashSet<>()).add(record.getContainerId());
      return;
    }
    Set<Long> ids = openByWriter.get(writer);
    if (ids != null && ids.remove(record.getContainerId()) && ids.isEmpty()) {
      openByWriter.remove(writer);
    }
  }

  private static ScmException dbFailure(IOException e) {
    LOG.error("SCM cannot update its container table", e);
    return new ScmException(ScmResult.INTERNAL_ERROR, "SCM cannot update its container table: " + e.getMessage());
  }
}
