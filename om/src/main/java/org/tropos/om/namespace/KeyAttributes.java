package org.tropos.om.namespace;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;

/**
 * What S3 sets on a version of a key after writing it: its tags (kept in its metadata under {@link #TAG_PREFIX},
 * replaced as a whole) and its canned ACL. Each rewrites that version's row.
 */
final class KeyAttributes {
  static final String TAG_PREFIX = PolicyRequest.TAG_METADATA;

  private KeyAttributes() {
  }

  static KeyInfo setTags(Txn txn, BucketRow bucket, SetKeyTagsRequest request) throws OmException {
    Map<String, String> tags = request.getTagsMap();
    return rewrite(txn, bucket, request.getKey(), request.getVersionId(), request.getExpectedObjectId(), row -> {
      Map<String, String> metadata = new LinkedHashMap<>(row.getMetadataMap());
      metadata.keySet().removeIf(name -> name.startsWith(TAG_PREFIX));
      tags.forEach((name, value) -> metadata.put(TAG_PREFIX + name, value));
      return row.toBuilder().clearMetadata().putAllMetadata(metadata).build();
    });
  }

  static KeyInfo setAcl(Txn txn, BucketRow bucket, SetKeyAclRequest request) throws OmException {
    AclGrantChecks.check(request.getGrants());
    BucketAccessSettings.checkObjectAcl(bucket, request.getAcl(), request.getGrants());
    return rewrite(txn, bucket, request.getKey(), request.getVersionId(), request.getExpectedObjectId(),
        row -> row.toBuilder().setAcl(request.getAcl()).setGrants(request.getGrants()).build());
  }

  /** Rewrites a version's row; {@code expectedObjectId} (0: any) is the object the caller checked it may change. */
  private static KeyInfo rewrite(Txn txn, BucketRow bucket, String key, String versionId, long expectedObjectId,
      UnaryOperator<FileRow> change) throws OmException {
    KeyVersions.Located found = Keys.find(txn, bucket, key, versionId, false);
    Keys.checkExpected(found.row(), expectedObjectId, key);
    FileRow changed = change.apply(found.row());
    txn.put(found.table(), found.rowKey(), changed);
    return Infos.version(bucket, Keys.path(bucket, key), changed, found.table() != OmTable.KEY_VERSIONS);
  }
}
