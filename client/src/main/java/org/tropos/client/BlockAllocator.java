package org.tropos.client;

import java.io.IOException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/** Where a writer gets its next block: from the OM for a key, or straight from SCM for raw blocks. */
@FunctionalInterface
interface BlockAllocator {
  AllocateBlockResponse allocate(long size, ReplicationFactor factor, ExcludeList exclude) throws IOException;

  /** Blocks straight from SCM (the admin block commands, benchmarks of the data path). */
  static BlockAllocator of(ScmBlockClient scm) {
    return (size, factor, exclude) -> {
      try {
        return scm.allocateBlock(size, factor, exclude);
      } catch (ScmException e) {
        throw new IOException("cannot allocate a block: " + e.getMessage(), e);
      }
    };
  }
}
