package org.tropos.om.occ;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.CallRecord;

/**
 * OM HA's retry cache (table {@code calls}): what a client call's transaction returned, written with its changes,
 * so that the same call sent again after a failover gets the same answer and changes nothing. Results that are
 * nothing, a string or a generated protobuf message are recorded; a transaction returning anything else is not
 * (none of the client calls' write transactions does). Records are purged once older than the clients' retry
 * window.
 */
final class CallRecords {
  private static final String PROTO_PACKAGE = "org.tropos.proto.";
  private static final int PURGE_PER_TRANSACTION = 10_000;

  private CallRecords() {
  }

  /** What a transaction returned the first time (null when it returned nothing). */
  record Recorded(Object result) {
  }

  /**
   * The result recorded under {@code key}, read through {@code txn} so that the read is validated: a concurrent
   * attempt of the same call that records it first makes this one re-run and find it.
   */
  static Optional<Recorded> recorded(Txn txn, byte[] key) throws OmException {
    Optional<CallRecord> record = txn.get(OmTable.CALLS, key, CallRecord.parser());
    return record.isEmpty() ? Optional.empty() : Optional.of(new Recorded(decode(record.get())));
  }

  /** Records {@code result} under {@code key} in {@code txn}'s changes; false if it is of a kind not recorded. */
  static boolean record(Txn txn, byte[] key, Object result) {
    CallRecord.Builder record = CallRecord.newBuilder().setCreatedMs(txn.nowMillis());
    if (result == null) {
      record.setKind(CallRecord.Kind.NONE);
    } else if (result instanceof String text) {
      record.setKind(CallRecord.Kind.TEXT).setText(text);
    } else if (result instanceof Message message && message.getClass().getName().startsWith(PROTO_PACKAGE)) {
      record.setKind(CallRecord.Kind.MESSAGE).setMessageClass(message.getClass().getName())
          .setMessage(message.toByteString());
    } else {
      return false;
    }
    txn.put(OmTable.CALLS, key, record.build());
    return true;
  }

  private static Object decode(CallRecord record) throws OmException {
    return switch (record.getKind()) {
      case NONE -> null;
      case TEXT -> record.getText();
      case MESSAGE -> parse(record.getMessageClass(), record.getMessage());
      default -> throw new OmException(OmResult.INTERNAL_ERROR, "a call record of unknown kind " + record.getKind());
    };
  }

  private static Object parse(String className, ByteString bytes) throws OmException {
    if (!className.startsWith(PROTO_PACKAGE)) {
      throw new OmException(OmResult.INTERNAL_ERROR, "a call record of class " + className);
    }
    try {
      return Class.forName(className).getMethod("parseFrom", ByteString.class).invoke(null, bytes);
    } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "cannot read a call record of class " + className + ": " + e);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() instanceof InvalidProtocolBufferException ? e.getCause() : e;
      throw new OmException(OmResult.INTERNAL_ERROR, "cannot read a call record of class " + className + ": "
          + cause);
    }
  }

  /**
   * Deletes, in one transaction, up to {@value #PURGE_PER_TRANSACTION} records of calls that started before
   * {@code beforeWallMs}; returns how many.
   */
  static int purgeSome(OccRunner runner, long beforeWallMs) throws OmException {
    byte[] end = CallScope.firstKeyFrom(beforeWallMs);
    return runner.run("purge the retry cache", txn -> {
      int[] removed = {0};
      byte[] all = new byte[0];
      txn.scan(OmTable.CALLS, all, all, CallRecord.parser(), (key, row) -> {
        if (Arrays.compareUnsigned(key, end) >= 0 || removed[0] >= PURGE_PER_TRANSACTION) {
          return false;
        }
        txn.delete(OmTable.CALLS, key);
        removed[0]++;
        return true;
      });
      return removed[0];
    });
  }
}
