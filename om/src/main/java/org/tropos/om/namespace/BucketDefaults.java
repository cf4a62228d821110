package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;

/**
 * What a bucket created without a layout or replication gets: erasure coding with {@code ec} when present, else
 * {@code factor} replicas.
 */
public record BucketDefaults(BucketLayout layout, ReplicationFactor factor, Optional<EcReplicationConfig> ec) {
  /** Replicated by {@code factor}. */
  public BucketDefaults(BucketLayout layout, ReplicationFactor factor) {
    this(layout, factor, Optional.empty());
  }
}
