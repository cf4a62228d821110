package org.tropos.client;

import java.util.Optional;
import org.tropos.client.internal.BlockLease;
import org.tropos.client.internal.OmClient;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.scm.AllocateBlockResponse;

/**
 * Opens the streams {@link TroposClient} writes keys through: opened in the OM first, or, for a small key, written
 * to a block leased ahead and opened only with its commit; encrypted when asked. Kept apart so that the client's
 * API stays a list of OM calls, and the choice of write path has one place.
 */
final class KeyWrites {
  private final Configuration conf;
  private final OmClient om;
  private final PipelineClients pipelines;
  private final EcWrites ecWrites;
  /** Blocks leased ahead for small keys ({@link #openSmall}). */
  private final BlockLease lease;

  KeyWrites(Configuration conf, OmClient om, PipelineClients pipelines, EcWrites ecWrites, Clock clock) {
    this.conf = conf;
    this.om = om;
    this.pipelines = pipelines;
    this.ecWrites = ecWrites;
    this.lease = new BlockLease(clock, om::leaseBlocks);
  }

  /** Opens the key in the OM, then writes it in blocks of at most {@code maxBlockSize} bytes. */
  KeyOutputStream open(OpenKeyRequest request, long maxBlockSize) throws OmException {
    KeyEncryption.Prepared prepared = KeyEncryption.prepare(request, false);
    OpenKeyResponse open = om.openKey(prepared.request());
    BlockWriteSettings settings = BlockWriteSettings.from(conf,
        open.hasFirstBlock() ? open.getFirstBlock().getPipeline().getFactor() : request.getFactor())
        .withMaxBlockSize(maxBlockSize);
    KeyOutputStream stored = open.hasEc()
        ? new BlockKeyOutputStream(om, ecWrites, settings, request.getVolume(), request.getBucket(), open)
        : new BlockKeyOutputStream(om, pipelines, settings, request.getVolume(), request.getBucket(), open);
    if (prepared.key() != null) {
      return KeyEncryption.encrypting(stored, prepared.kind(), prepared.key());
    }
    return open.getDataKey().isEmpty() ? stored : KeyEncryption.encrypting(stored, open.getEncryption(),
        open.getDataKey().toByteArray());
  }

  /**
   * A key of exactly {@code request.getSize()} bytes, opened only with its commit when it can be
   * ({@link TroposClient#createSmallKey} says when).
   */
  KeyOutputStream openSmall(OpenKeyRequest request) throws OmException {
    if (!request.getUploadId().isEmpty() || request.getEncryption().getKind() == EncryptionKind.SSE_KMS
        || request.hasEc()) {
      // A part of an encrypted upload is written under the upload's data key, an SSE-KMS key under one the KMS
      // makes: only their opening answers them. An erasure-coded key is striped into groups, never leased blocks.
      return open(request, Long.MAX_VALUE);
    }
    // Written before the OM sees the key, so encrypted under a data key of the writer's making (or SSE-C's).
    KeyEncryption.Prepared prepared = KeyEncryption.prepare(request, true);
    KeyOutputStream stored = openPlainSmall(prepared.request());
    return prepared.key() == null ? stored : KeyEncryption.encrypting(stored, prepared.kind(), prepared.key());
  }

  private KeyOutputStream openPlainSmall(OpenKeyRequest request) throws OmException {
    AllocateBlockResponse block = null; // an empty key of a named factor needs none
    ReplicationFactor factor = request.getFactor();
    if (request.getSize() != 0 || factor == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED) {
      Optional<AllocateBlockResponse> leased = lease.take(factor, request.getSize());
      if (leased.isEmpty()) {
        return open(request, Long.MAX_VALUE);
      }
      block = leased.get();
      factor = block.getPipeline().getFactor();
    }
    return BlockKeyOutputStream.openedWithCommit(om, pipelines, BlockWriteSettings.from(conf, factor), request,
        block, lease);
  }
}
