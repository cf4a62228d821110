package org.tropos.scm.container;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.Uuid;
import org.tropos.proto.scm.db.ContainerRecord;

/**
 * What SCM remembers of particular replicas in their container's record, so that it outlives the in-memory
 * replica map (a DEAD node, an SCM restart, a new HA leader): replicas reported corrupt, replicas that left with
 * their DEAD node ({@code departed}), and replicas behind on deletions SCM has forgotten, which may hold deleted
 * blocks for good and are replaced once an up-to-date one exists. A replica is behind when a deletion of its
 * container finished while it was departed, or when SCM first hears of it carrying out less than the container's
 * last finished deletion (a replica SCM never knew of). Every mark goes when the datanode reports the replica gone.
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class ReplicaMarks {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaMarks.class);

  private final ContainerTable table;

  ReplicaMarks(ContainerTable table) {
    this.table = table;
  }

  /** A replica this SCM had not counted reported by {@code node}: back from DEAD, or never heard of before. */
  ContainerRecord firstHeard(ContainerRecord c, UUID node, ContainerReport report) {
    Uuid id = Uuids.toProto(node);
    ContainerRecord.Builder updated = c.toBuilder();
    boolean changed = false;
    if (c.getDepartedList().contains(id)) {
      updated.clearDeparted().addAllDeparted(without(c.getDepartedList(), id));
      changed = true;
    }
    if (report.getDeleteTxId() < c.getDeletionsDoneTxId() && !c.getBehindOnDeletionsList().contains(id)) {
      updated.addBehindOnDeletions(id);
      changed = true;
      LOG.info("Datanode {} was away while deletions of container {} finished (it carried out up to {}, the others"
          + " {}): its replica is replaced", node, c.getContainerId(), report.getDeleteTxId(),
          c.getDeletionsDoneTxId());
    }
    return changed ? saved(updated.build()) : c;
  }

  /** The datanode no longer holds the replica: its marks go. */
  void gone(ContainerRecord c, UUID node) {
    Uuid id = Uuids.toProto(node);
    if (c.getBadReplicasList().contains(id) || c.getBehindOnDeletionsList().contains(id)
        || c.getDepartedList().contains(id)) {
      saved(c.toBuilder().clearBadReplicas().addAllBadReplicas(without(c.getBadReplicasList(), id))
          .clearBehindOnDeletions().addAllBehindOnDeletions(without(c.getBehindOnDeletionsList(), id))
          .clearDeparted().addAllDeparted(without(c.getDepartedList(), id)).build());
    }
  }

  /**
   * The datanode went DEAD: its replica is no longer counted, and may come back. Returns the record to store, or
   * null if it is marked already: a node holds thousands of replicas, so the caller stores them all as one change.
   */
  ContainerRecord departed(ContainerRecord c, UUID node) {
    return c.getDepartedList().contains(Uuids.toProto(node)) ? null
        : c.toBuilder().addDeparted(Uuids.toProto(node)).build();
  }

  /**
   * Every replica SCM counts carried out deletion {@code txId}, which SCM now forgets: the departed replicas are
   * behind on it.
   */
  void deletionDone(ContainerRecord c, long txId) {
    if (txId <= c.getDeletionsDoneTxId() && c.getDepartedCount() == 0) {
      return;
    }
    ContainerRecord.Builder updated = c.toBuilder().setDeletionsDoneTxId(Math.max(txId, c.getDeletionsDoneTxId()))
        .clearDeparted();
    for (Uuid away : c.getDepartedList()) {
      if (!updated.getBehindOnDeletionsList().contains(away)) {
        updated.addBehindOnDeletions(away);
      }
    }
    saved(updated.build());
  }

  private ContainerRecord saved(ContainerRecord c) {
    table.saveQuietly(c);
    return c;
  }

  private static List<Uuid> without(List<Uuid> ids, Uuid id) {
    List<Uuid> rest = new ArrayList<>(ids);
    rest.remove(id);
    return rest;
  }
}
