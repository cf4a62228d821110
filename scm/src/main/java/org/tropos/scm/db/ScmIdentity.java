package org.tropos.scm.db;

import java.io.IOException;
import java.util.Optional;
import java.util.UUID;

/**
 * The cluster's id and this SCM's id, created on SCM's first start and kept in its database. Datanodes record
 * the cluster id when they first register and are refused by an SCM of another cluster.
 */
public record ScmIdentity(String clusterId, String scmId) {
  private static final String CLUSTER_ID = "clusterId";
  private static final String SCM_ID = "scmId";

  /** The identity the database holds: none before the first (leading) SCM created it. */
  public static Optional<ScmIdentity> load(ScmDb db) throws IOException {
    String clusterId = db.meta(CLUSTER_ID);
    return clusterId == null ? Optional.empty() : Optional.of(new ScmIdentity(clusterId, db.meta(SCM_ID)));
  }

  /** Writes {@code identity}, as another SCM of the service holds it, to this SCM's database (before Raft runs). */
  public static void adopt(ScmDb db, ScmIdentity identity) throws IOException {
    db.putMeta(SCM_ID, identity.scmId());
    db.putMeta(CLUSTER_ID, identity.clusterId());
  }

  /** The identity the database holds, or a new cluster's, created and stored (the first SCM's first start). */
  public static ScmIdentity loadOrCreate(ScmDb db) throws IOException {
    String clusterId = db.meta(CLUSTER_ID);
    String scmId = db.meta(SCM_ID);
    if (clusterId == null) {
      clusterId = "CID-" + UUID.randomUUID();
      scmId = UUID.randomUUID().toString();
      db.putMeta(SCM_ID, scmId);
      db.putMeta(CLUSTER_ID, clusterId);
    }
    return new ScmIdentity(clusterId, scmId);
  }
}
