package org.tropos.tools.cli.sh;

import java.util.Locale;
import java.util.Optional;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.ReplicationFactor;
import picocli.CommandLine.Option;

/**
 * {@code --type RATIS|EC} and {@code --replication}, as Ozone's shell takes them: {@code -t EC -r rs-6-3-1024k}
 * erasure-codes, {@code -r 3} (or {@code -t RATIS -r THREE}) replicates. Neither: the bucket's, or the OM's, default.
 */
final class ReplicationOptions {
  @Option(names = {"-t", "--type"}, paramLabel = "RATIS|EC", description = "RATIS (replicated) or EC (erasure-coded;"
      + " needs --replication).")
  String type;

  @Option(names = {"-r", "--replication"}, paramLabel = "REPLICATION", description = "For RATIS 1 or 3 replicas,"
      + " for EC a config: rs-3-2-1024k, rs-6-3-1024k, xor-2-1-1024k (codec-data-parity-cellsize).")
  String replication;

  /** The erasure-coding config asked for, if any; a bad combination fails naming the options. */
  Optional<EcReplicationConfig> ec() {
    String kind = type == null ? "" : type.toUpperCase(Locale.ROOT);
    if (!kind.isEmpty() && !kind.equals("RATIS") && !kind.equals("EC")) {
      throw new IllegalArgumentException("--type is RATIS or EC, not " + type);
    }
    if (kind.equals("EC") || (kind.isEmpty() && replication != null && replication.contains("-"))) {
      if (replication == null) {
        throw new IllegalArgumentException("--type EC needs --replication, e.g. rs-6-3-1024k");
      }
      return Optional.of(EcReplication.parse(replication).toProto());
    }
    return Optional.empty();
  }

  /** The replication factor asked for; UNSPECIFIED when none (or an EC config) is. */
  ReplicationFactor factor() {
    if (replication == null || ec().isPresent()) {
      return ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED;
    }
    return switch (replication.toUpperCase(Locale.ROOT)) {
      case "1", "ONE" -> ReplicationFactor.ONE;
      case "3", "THREE" -> ReplicationFactor.THREE;
      default -> throw new IllegalArgumentException("--replication of RATIS is 1 or 3, not " + replication);
    };
  }

  /** How a bucket or key is stored, for people: {@code RATIS/THREE} or {@code EC/rs-6-3-1024k}. */
  static String describe(ReplicationFactor factor, boolean hasEc, EcReplicationConfig ec) {
    return hasEc ? "EC/" + EcReplication.fromProto(ec) : "RATIS/" + factor;
  }
}
