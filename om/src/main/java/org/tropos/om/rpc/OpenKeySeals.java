package org.tropos.om.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SecretKey;
import org.tropos.common.security.SecretKeyRing;
import org.tropos.common.util.Uuids;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.OpenKeyRow;
import org.tropos.proto.om.db.SealedOpenKey;

/**
 * The open keys the OM hands writers, sealed in a secure cluster with SCM's newest secret key (the one block tokens
 * are signed with, which every OM of the service holds), so that AllocateBlock and CommitKey take back only an open
 * key the OM made: a writer that changed its owner, path, upload or wrapped data key is refused. An open key is
 * good as long as SCM keeps the key that sealed it. Without security, open keys travel unsealed and are taken as
 * carried, as everything a caller says is then.
 */
final class OpenKeySeals {
  /** Put before the row's bytes when they are signed, so no other signed thing can pass for an open key. */
  private static final ByteString PURPOSE = ByteString.copyFromUtf8("tropos open key\0");

  private final Optional<SecretKeyRing> keys;

  OpenKeySeals(Optional<SecretKeyRing> keys) {
    this.keys = keys;
  }

  /** What OpenKeyResponse.open_key carries for {@code row}. */
  ByteString seal(OpenKeyRow row) throws OmException {
    ByteString bytes = row.toByteString();
    SealedOpenKey.Builder sealed = SealedOpenKey.newBuilder().setRow(bytes);
    if (keys.isPresent()) {
      SecretKey key = current(keys.get());
      sealed.setKeyId(Uuids.toProto(key.id())).setMac(ByteString.copyFrom(key.mac(PURPOSE.concat(bytes))));
    }
    return sealed.build().toByteString();
  }

  /**
   * The row of an open key a writer carried back (as {@link #seal} made it, unchanged, in a secure cluster).
   *
   * @throws OmException INVALID_REQUEST when it cannot be read, PERMISSION_DENIED when the OM did not seal it so
   */
  ByteString unseal(ByteString carried) throws OmException {
    SealedOpenKey sealed;
    try {
      sealed = SealedOpenKey.parseFrom(carried);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INVALID_REQUEST, "unreadable open key: " + e.getMessage());
    }
    if (keys.isEmpty()) {
      return sealed.getRow();
    }
    if (sealed.getMac().isEmpty()) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the open key is not sealed: carry back the one OpenKey"
          + " answered");
    }
    Optional<SecretKey> key = find(keys.get(), sealed);
    if (key.isEmpty()) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the open key is sealed with a key SCM no longer keeps (or"
          + " never made): the write is too old to commit, write the key again");
    }
    if (!MessageDigest.isEqual(key.get().mac(PURPOSE.concat(sealed.getRow())), sealed.getMac().toByteArray())) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the open key is not the one the OM made: it was changed");
    }
    return sealed.getRow();
  }

  private static SecretKey current(SecretKeyRing ring) throws OmException {
    try {
      return ring.current();
    } catch (IOException e) {
      throw new OmException(OmResult.SCM_UNAVAILABLE, "cannot seal the open key: " + e.getMessage());
    }
  }

  private static Optional<SecretKey> find(SecretKeyRing ring, SealedOpenKey sealed) throws OmException {
    try {
      return ring.find(Uuids.fromProto(sealed.getKeyId()));
    } catch (IOException e) {
      throw new OmException(OmResult.SCM_UNAVAILABLE, "cannot check the open key: " + e.getMessage());
    }
  }
}
