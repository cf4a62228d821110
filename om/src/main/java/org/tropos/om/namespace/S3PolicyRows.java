package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.tropos.common.acl.PolicyDocument;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.db.S3PolicyRow;

/**
 * The S3 identity policies that users and groups can be attached to: those administrators create ({@code s3Policies}
 * rows) and MinIO's built-in ones, which every OM knows and nobody changes: {@code readwrite} (every S3 action),
 * {@code readonly} (reading objects) and {@code writeonly} (writing them), on every bucket.
 */
final class S3PolicyRows {
  static final Map<String, String> BUILT_IN = Map.of(
      "readwrite", allow("\"s3:*\""),
      "readonly", allow("\"s3:GetBucketLocation\", \"s3:GetObject\""),
      "writeonly", allow("\"s3:PutObject\""));
  private static final Pattern NAME = Pattern.compile("[\\w+=,.@-]{1,128}");

  private S3PolicyRows() {
  }

  private static String allow(String actions) {
    return "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", \"Action\": [" + actions
        + "], \"Resource\": [\"arn:aws:s3:::*\"]}]}";
  }

  static void put(Txn txn, S3Policy policy) throws OmException {
    String name = policy.getName();
    if (!NAME.matcher(name).matches()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a policy's name is 1 to 128 letters, digits and +=,.@_-");
    }
    if (BUILT_IN.containsKey(name)) {
      throw new OmException(OmResult.INVALID_REQUEST, "policy " + name + " is built in and cannot be changed");
    }
    try {
      PolicyDocument.forIdentity(policy.getDocument());
    } catch (IllegalArgumentException e) {
      throw new OmException(OmResult.MALFORMED_POLICY, "policy " + name + ": " + e.getMessage());
    }
    txn.put(OmTable.S3_POLICIES, OmDbKeys.utf8(name), S3PolicyRow.newBuilder().setDocument(policy.getDocument())
        .setCreationTimeMs(txn.nowMillis()).build());
  }

  /** The document of policy {@code name}; empty if there is none. */
  static Optional<String> document(Txn txn, String name) throws OmException {
    String builtIn = BUILT_IN.get(name);
    if (builtIn != null) {
      return Optional.of(builtIn);
    }
    return txn.get(OmTable.S3_POLICIES, OmDbKeys.utf8(name), S3PolicyRow.parser()).map(S3PolicyRow::getDocument);
  }

  /**
   * Fails unless policy {@code name} exists. Its row is written again, unchanged, so that a deletion of the policy
   * running at the same time conflicts with the attachment this check precedes, and no attachment is left to a
   * policy that is gone.
   */
  static void requireForAttachment(Txn txn, String name) throws OmException {
    if (BUILT_IN.containsKey(name)) {
      return;
    }
    byte[] key = OmDbKeys.utf8(name);
    S3PolicyRow row = txn.get(OmTable.S3_POLICIES, key, S3PolicyRow.parser()).orElseThrow(() -> missing(name));
    txn.put(OmTable.S3_POLICIES, key, row);
  }

  /** Deletes policy {@code name}; the caller has made sure nothing is attached to it. */
  static void delete(Txn txn, String name) throws OmException {
    if (BUILT_IN.containsKey(name)) {
      throw new OmException(OmResult.INVALID_REQUEST, "policy " + name + " is built in and cannot be deleted");
    }
    byte[] key = OmDbKeys.utf8(name);
    if (txn.get(OmTable.S3_POLICIES, key, S3PolicyRow.parser()).isEmpty()) {
      throw missing(name);
    }
    txn.delete(OmTable.S3_POLICIES, key);
  }

  /** Every policy, the built-in ones first. */
  static List<S3Policy> list(Txn txn) throws OmException {
    List<S3Policy> policies = new ArrayList<>();
    BUILT_IN.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> policies.add(S3Policy.newBuilder()
        .setName(e.getKey()).setDocument(e.getValue()).setBuiltIn(true).build()));
    txn.scan(OmTable.S3_POLICIES, new byte[0], new byte[0], S3PolicyRow.parser(), (key, row) -> policies.add(
        S3Policy.newBuilder().setName(OmDbKeys.name(key)).setDocument(row.getDocument()).build()));
    return policies;
  }

  static OmException missing(String name) {
    return new OmException(OmResult.S3_IDENTITY_NOT_FOUND, "no S3 policy named " + name);
  }
}
