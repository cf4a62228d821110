package org.tropos.om.namespace;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;

/** A key's tags (S3 object tagging), kept in its metadata under {@link #PREFIX}; replaced as a whole. */
final class KeyTags {
  static final String PREFIX = "tag:";

  private KeyTags() {
  }

  static KeyInfo set(Txn txn, BucketRow bucket, String key, Map<String, String> tags) throws OmException {
    boolean flat = bucket.getLayout() == BucketLayout.OBJECT_STORE;
    OmTable table = flat ? OmTable.KEYS : OmTable.FILES;
    byte[] rowKey;
    String path;
    if (flat) {
      rowKey = OmDbKeys.child(bucket.getObjectId(), bucket.getObjectId(), key);
      path = key;
    } else {
      List<String> parts = Names.split(key);
      FsoTree.Resolved r = FsoTree.resolve(txn, bucket, parts);
      if (r.file().isEmpty()) {
        throw FsoTree.notFound(bucket, key);
      }
      rowKey = OmDbKeys.child(bucket.getObjectId(), r.parentId(), parts.get(parts.size() - 1));
      path = r.path();
    }
    FileRow row = txn.get(table, rowKey, FileRow.parser()).orElseThrow(() -> new OmException(
        OmResult.KEY_NOT_FOUND, key + " not found in " + FsoTree.name(bucket)));
    Map<String, String> metadata = new HashMap<>(row.getMetadataMap());
    metadata.keySet().removeIf(name -> name.startsWith(PREFIX));
    tags.forEach((name, value) -> metadata.put(PREFIX + name, value));
    FileRow tagged = row.toBuilder().clearMetadata().putAllMetadata(metadata).build();
    txn.put(table, rowKey, tagged);
    return Infos.file(bucket, path, tagged);
  }
}
