package org.tropos.scm.security;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.security.SealingKey;
import org.tropos.proto.scm.GetSealingKeyResponse;
import org.tropos.scm.db.ScmDb;

/**
 * The key the OMs seal S3 secrets with, kept in SCM's database: one row, made once by the serving SCM (under HA
 * replicated to every SCM) and never changed, so a secret sealed by any OM opens on every OM, now and later. The
 * OMs' database thus holds no secret in the clear, and SCM's no secret at all.
 */
public final class ScmSealingKey {
  private static final Logger LOG = LoggerFactory.getLogger(ScmSealingKey.class);
  static final String ROW = "om.sealing.key";

  private ScmSealingKey() {
  }

  /** The key the database holds, made now if it holds none. */
  public static SealingKey loadOrCreate(ScmDb db) throws IOException {
    String row = db.meta(ROW);
    if (row == null) {
      SealingKey made = SealingKey.generate();
      db.putMeta(ROW, Base64.getEncoder().encodeToString(GetSealingKeyResponse.newBuilder().setId(made.id())
          .setKey(ByteString.copyFrom(made.encoded())).build().toByteArray()));
      LOG.info("Made the OMs' sealing key {}", made);
      return made;
    }
    try {
      return SealingKey.of(GetSealingKeyResponse.parseFrom(Base64.getDecoder().decode(row)).getKey().toByteArray());
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      throw new IOException("SCM's sealing key (row " + ROW + ") is unreadable: " + e.getMessage(), e);
    }
  }
}
