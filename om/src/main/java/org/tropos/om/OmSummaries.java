package org.tropos.om;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.BooleanSupplier;
import org.tropos.common.util.VersionInfo;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccMetrics;
import org.tropos.proto.console.OmSummary;

/**
 * The OM at a glance, for SCM's web console ({@code /api/summary}) and as gauges ({@code om_namespace_rows}): the
 * namespace's size from RocksDB's row estimates (cheap; exact after compaction) and optimistic concurrency's counts.
 */
final class OmSummaries {
  private final OmDb db;
  private final OccMetrics occ;
  private final BooleanSupplier serving;

  OmSummaries(OmDb db, OccMetrics occ, BooleanSupplier serving) {
    this.db = db;
    this.occ = occ;
    this.serving = serving;
  }

  void register(MeterRegistry registry) {
    rows(registry, "volumes", OmTable.VOLUMES);
    rows(registry, "buckets", OmTable.BUCKETS);
    rows(registry, "directories", OmTable.DIRECTORIES);
    rows(registry, "files", OmTable.FILES);
    rows(registry, "keys", OmTable.KEYS);
    rows(registry, "open_keys", OmTable.OPEN_KEYS);
    rows(registry, "deleted_keys", OmTable.DELETED_KEYS);
    rows(registry, "multipart_uploads", OmTable.MULTIPART_UPLOADS);
  }

  private void rows(MeterRegistry registry, String kind, OmTable table) {
    Gauge.builder("om.namespace.rows", () -> db.estimatedRows(table)).strongReference(true)
        .description("Rows of the namespace's tables (RocksDB's estimate).").tag("table", kind).register(registry);
  }

  OmSummary summary() {
    return OmSummary.newBuilder().setVolumes(db.estimatedRows(OmTable.VOLUMES))
        .setBuckets(db.estimatedRows(OmTable.BUCKETS))
        .setKeys(db.estimatedRows(OmTable.KEYS) + db.estimatedRows(OmTable.FILES))
        .setDirectories(db.estimatedRows(OmTable.DIRECTORIES)).setCommits(occ.commits())
        .setConflicts(occ.conflicts()).setRetries(occ.retries()).setServing(serving.getAsBoolean())
        .setVersion(VersionInfo.version()).build();
  }
}
