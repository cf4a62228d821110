package org.tropos.om.namespace;

import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.MultipartUploadRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * How a bucket's or key's data is stored: erasure-coded ({@code ec} set, factor unspecified) or replicated
 * ({@code factor}). A bucket takes its link source's, the one it is created with, or the OM's default; a key the
 * one it is opened with, else its bucket's.
 */
final class KeyReplication {
  private KeyReplication() {
  }

  /** Sets a new bucket's replication on {@code row}; {@code source}: a link's source, else null. */
  static void ofBucket(BucketRow.Builder row, BucketInfo request, BucketRow source, BucketDefaults defaults)
      throws OmException {
    if (source != null) {
      row.setFactor(source.getFactor());
      if (source.hasEc()) {
        row.setEc(source.getEc());
      }
    } else if (request.hasEc()) {
      row.setEc(valid(request.getEc()));
    } else if (request.getFactor() != ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED) {
      row.setFactor(validFactor(request.getFactor()));
    } else if (defaults.ec().isPresent()) {
      row.setEc(defaults.ec().get());
    } else {
      row.setFactor(defaults.factor());
    }
  }

  /** Sets a new key's replication on {@code open}: as asked, else as its bucket. */
  static void ofKey(OpenKeyRow.Builder open, OpenKeyRequest request, BucketRow bucket) throws OmException {
    if (request.hasEc()) {
      open.setEc(valid(request.getEc()));
    } else if (request.getFactor() != ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED) {
      open.setFactor(validFactor(request.getFactor()));
    } else if (bucket.hasEc()) {
      open.setEc(bucket.getEc());
    } else {
      open.setFactor(bucket.getFactor());
    }
  }

  /** A multipart upload's key is stored as its bucket says. */
  static void ofUpload(MultipartUploadRow.Builder upload, BucketRow bucket) {
    upload.setFactor(bucket.getFactor());
    if (bucket.hasEc()) {
      upload.setEc(bucket.getEc());
    }
  }

  /** The key an upload joins is stored as the upload (its parts are, unless written with their own). */
  static OpenKeyRow.Builder ofJoinedKey(OpenKeyRow.Builder open, MultipartUploadRow upload) {
    open.setFactor(upload.getFactor());
    return upload.hasEc() ? open.setEc(upload.getEc()) : open;
  }

  /** {@code ec} if it names an erasure-coding config Tropos writes, else INVALID_REQUEST saying why. */
  static EcReplicationConfig valid(EcReplicationConfig ec) throws OmException {
    try {
      return EcReplication.fromProto(ec).toProto();
    } catch (IllegalArgumentException e) {
      throw new OmException(OmResult.INVALID_REQUEST, e.getMessage());
    }
  }

  private static ReplicationFactor validFactor(ReplicationFactor factor) throws OmException {
    if (factor == ReplicationFactor.UNRECOGNIZED) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown replication factor");
    }
    return factor;
  }
}
