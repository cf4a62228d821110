package org.tropos.om.namespace;

import java.util.function.Consumer;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
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
    if (!asked(open::setEc, open::setFactor, request.hasEc(), request.getEc(), request.getFactor())) {
      withEc(open.setFactor(bucket.getFactor()), bucket.hasEc(), bucket.getEc());
    }
  }

  /** Sets a new part's replication on {@code open}: as asked, else as its upload. */
  static void ofPart(OpenKeyRow.Builder open, OpenKeyRequest request, MultipartUploadRow upload)
      throws OmException {
    if (!asked(open::setEc, open::setFactor, request.hasEc(), request.getEc(), request.getFactor())) {
      ofJoinedKey(open, upload);
    }
  }

  /** A multipart upload's key is stored as asked (an S3 storage class), else as its bucket says. */
  static void ofUpload(MultipartUploadRow.Builder upload, InitiateMultipartUploadRequest request, BucketRow bucket)
      throws OmException {
    if (!asked(upload::setEc, upload::setFactor, request.hasEc(), request.getEc(), request.getFactor())) {
      upload.setFactor(bucket.getFactor());
      if (bucket.hasEc()) {
        upload.setEc(bucket.getEc());
      }
    }
  }

  /** The key an upload joins is stored as the upload (its parts are, unless written with their own). */
  static OpenKeyRow.Builder ofJoinedKey(OpenKeyRow.Builder open, MultipartUploadRow upload) {
    return withEc(open.setFactor(upload.getFactor()), upload.hasEc(), upload.getEc());
  }

  private static OpenKeyRow.Builder withEc(OpenKeyRow.Builder open, boolean hasEc, EcReplicationConfig ec) {
    return hasEc ? open.setEc(ec) : open;
  }

  /** Sets the replication a request asks for, if it asks for one; whether it did. */
  private static boolean asked(Consumer<EcReplicationConfig> setEc, Consumer<ReplicationFactor> setFactor,
      boolean hasEc, EcReplicationConfig ec, ReplicationFactor factor) throws OmException {
    if (hasEc) {
      setEc.accept(valid(ec));
    } else if (factor != ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED) {
      setFactor.accept(validFactor(factor));
    } else {
      return false;
    }
    return true;
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
