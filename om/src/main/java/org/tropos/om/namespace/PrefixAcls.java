package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.acl.NativeAcls;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclScope;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.PrefixRow;

/**
 * Prefix ACLs (Ozone's): a native ACL on the keys of a bucket whose names start with a prefix ending in '/'. The
 * longest prefix with an ACL that holds a key decides: its ACCESS entries grant on the key beside the key's own, and
 * a key or directory created under it inherits its DEFAULT entries instead of the bucket's (when it has any). A
 * bucket records whether it has prefix ACLs at all, so the keys of the others cost no lookup.
 */
final class PrefixAcls {
  private static final int MAX_PREFIX = 1024;

  private PrefixAcls() {
  }

  /** The ACL of the longest prefix with one that holds {@code path} of {@code bucket} (empty: none). */
  static List<NativeAcl> holding(Txn txn, BucketRow bucket, String path) throws OmException {
    return longest(txn, bucket, path).map(PrefixRow::getAclsList).orElse(List.of());
  }

  /** The ACL of exactly {@code prefix} (empty: none). */
  static List<NativeAcl> of(Txn txn, BucketRow bucket, String prefix) throws OmException {
    checkName(prefix);
    return read(txn, bucket, prefix).map(PrefixRow::getAclsList).orElse(List.of());
  }

  /** What a key or directory created at {@code path} starts with: its prefix's DEFAULT entries, else the bucket's. */
  static List<NativeAcl> inheritedBy(Txn txn, BucketRow bucket, String path) throws OmException {
    List<NativeAcl> prefix = holding(txn, bucket, path);
    boolean hasDefaults = prefix.stream().anyMatch(a -> a.getScope() == AclScope.SCOPE_DEFAULT);
    return NativeAcls.inherited(hasDefaults ? prefix : bucket.getAclsList(), false);
  }

  /** Changes the ACL of {@code prefix} in {@code bucket}; returns what it is then. */
  static List<NativeAcl> change(Txn txn, BucketRow bucket, String prefix, AclChange change, List<NativeAcl> given)
      throws OmException {
    List<NativeAcl> acls = NativeAcls.changed(of(txn, bucket, prefix), change, given);
    byte[] key = OmDbKeys.prefix(bucket.getObjectId(), prefix);
    if (acls.isEmpty()) {
      txn.delete(OmTable.PREFIXES, key);
    } else {
      txn.put(OmTable.PREFIXES, key, PrefixRow.newBuilder().addAllAcls(acls).build());
    }
    boolean any = !acls.isEmpty() || txn.hasAny(OmTable.PREFIXES, OmDbKeys.bucketPrefix(bucket.getObjectId()));
    if (any != bucket.getPrefixAcls()) {
      txn.put(OmTable.BUCKETS, OmDbKeys.bucket(bucket.getVolume(), bucket.getName()),
          bucket.toBuilder().setPrefixAcls(any).build());
    }
    return acls;
  }

  /** Deletes the prefix ACLs of a bucket being deleted. */
  static void deleteAll(Txn txn, BucketRow bucket) throws OmException {
    if (!bucket.getPrefixAcls()) {
      return;
    }
    byte[] all = OmDbKeys.bucketPrefix(bucket.getObjectId());
    List<byte[]> keys = new ArrayList<>();
    txn.scan(OmTable.PREFIXES, all, all, PrefixRow.parser(), (key, row) -> keys.add(key));
    keys.forEach(k -> txn.delete(OmTable.PREFIXES, k));
  }

  /** A prefix as an ACL call may name one: not empty, ending in '/', not starting with one. */
  static void checkName(String prefix) throws OmException {
    if (prefix.isEmpty() || !prefix.endsWith("/") || prefix.startsWith("/") || prefix.length() > MAX_PREFIX) {
      throw new OmException(OmResult.INVALID_REQUEST, "a prefix ACL is on a prefix of at most " + MAX_PREFIX
          + " characters ending in '/' (and not starting with one), not '" + prefix + "'");
    }
  }

  /** Each prefix of {@code path} that ends in '/', longest first, until one has an ACL. */
  private static Optional<PrefixRow> longest(Txn txn, BucketRow bucket, String path) throws OmException {
    if (!bucket.getPrefixAcls() || path.isEmpty()) {
      return Optional.empty();
    }
    String name = bucket.getLayout() == BucketLayout.OBJECT_STORE ? path : Names.join(Names.split(path))
        + (path.endsWith("/") ? "/" : "");
    for (int end = name.lastIndexOf('/'); end > 0; end = name.lastIndexOf('/', end - 1)) {
      Optional<PrefixRow> row = read(txn, bucket, name.substring(0, end + 1));
      if (row.isPresent()) {
        return row;
      }
    }
    return Optional.empty();
  }

  private static Optional<PrefixRow> read(Txn txn, BucketRow bucket, String prefix) throws OmException {
    return txn.get(OmTable.PREFIXES, OmDbKeys.prefix(bucket.getObjectId(), prefix), PrefixRow.parser());
  }
}
