package org.tropos.om.namespace;

import java.io.IOException;
import java.nio.file.Path;
import org.tropos.common.util.ManualClock;
import org.tropos.om.db.OmDb;
import org.tropos.om.occ.Committer;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.occ.OccMetrics;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;

/** The OM's namespace on a real RocksDB in a test directory, reopenable to check what survives a restart. */
final class OmTestStore implements AutoCloseable {
  final ManualClock clock = new ManualClock();
  final OccMetrics metrics = new OccMetrics();
  final OmDb db;
  final Committer committer;
  final OccRunner runner;
  final Namespace namespace;

  OmTestStore(Path dir) throws IOException {
    db = OmDb.open(dir);
    committer = new Committer("om-test", db, 64, metrics);
    committer.start();
    runner = new OccRunner(db, new ObjectIds(db), committer, clock, 20, metrics);
    namespace = new Namespace(runner, BucketLayout.FILE_SYSTEM_OPTIMIZED, ReplicationFactor.THREE);
  }

  @Override
  public void close() throws IOException {
    committer.close();
    db.close();
  }
}
