package org.tropos.om.namespace;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;

/**
 * The files of an FSO bucket as a flat list of keys (ListKeys, S3 listings): full paths in byte order, under a
 * prefix, after a key, a page at a time. The tree is walked depth first; within a directory a subdirectory
 * {@code d} sorts as {@code d/} among the files, which is where its keys fall in byte order, and subtrees wholly
 * before the start key or outside the prefix are skipped. Every directory is listed as a key of its own,
 * {@code path/} (a directory key), right before what it holds: as S3's folder marker, which S3A and other S3
 * clients read as "this directory exists" and delete along with its contents (unless an S3 client deleted the
 * marker while it held something: then it shows only through what it holds, as a prefix, until it is empty).
 */
final class FsoKeyListing {
  private final Txn txn;
  private final BucketRow bucket;
  private final byte[] prefix;
  private final byte[] startAfter;
  private final Listing.Page<KeyInfo> page;

  private FsoKeyListing(Txn txn, BucketRow bucket, String prefix, String startAfter, int max) {
    this.txn = txn;
    this.bucket = bucket;
    this.prefix = utf8(prefix);
    this.startAfter = utf8(startAfter);
    this.page = new Listing.Page<>(Listing.pageSize(max));
  }

  static ListKeysResponse list(Txn txn, BucketRow bucket, String prefix, String startAfter, int max)
      throws OmException {
    FsoKeyListing listing = new FsoKeyListing(txn, bucket, prefix, startAfter, max);
    listing.walk(bucket.getObjectId(), "", null);
    return ListKeysResponse.newBuilder().addAllKeys(listing.page.items()).setTruncated(listing.page.truncated())
        .build();
  }

  /** One entry of a directory: a file, or a subdirectory sorted as its name plus '/'. */
  private record Entry(byte[] sortKey, String name, FileRow file, DirectoryRow dir) {
  }

  /**
   * Lists the directory {@code dirId} whose path is {@code base} (ending in '/', or empty for the root, whose
   * {@code row} is null); false when full.
   */
  private boolean walk(long dirId, String base, DirectoryRow row) throws OmException {
    List<Entry> entries = entries(dirId);
    if (row != null && (!row.getMarkerDeleted() || entries.isEmpty())) {
      byte[] full = utf8(base);
      if (startsWith(full, prefix) && Arrays.compareUnsigned(full, startAfter) > 0
          && !page.add(Infos.directory(bucket, base, row))) {
        return false;
      }
    }
    for (Entry e : entries) {
      byte[] full = concat(utf8(base), e.sortKey());
      if (e.file() != null) {
        if (startsWith(full, prefix) && Arrays.compareUnsigned(full, startAfter) > 0
            && !page.add(Infos.file(bucket, base + e.name(), e.file()))) {
          return false;
        }
      } else if (mayHold(full) && !walk(e.dir().getObjectId(), base + e.name() + "/", e.dir())) {
        return false;
      }
    }
    return true;
  }

  /** Whether keys under the directory path {@code dir} (ending in '/') can match the prefix and the start key. */
  private boolean mayHold(byte[] dir) {
    boolean prefixOk = startsWith(dir, prefix) || startsWith(prefix, dir);
    boolean wholeSubtreeBefore = Arrays.compareUnsigned(dir, startAfter) < 0 && !startsWith(startAfter, dir);
    return prefixOk && !wholeSubtreeBefore;
  }

  private List<Entry> entries(long dirId) throws OmException {
    byte[] children = OmDbKeys.childrenOf(bucket.getObjectId(), dirId);
    List<Entry> entries = new ArrayList<>();
    txn.scan(OmTable.DIRECTORIES, children, children, DirectoryRow.parser(),
        (k, row) -> entries.add(new Entry(utf8(row.getName() + "/"), row.getName(), null, row)));
    txn.scan(OmTable.FILES, children, children, FileRow.parser(),
        (k, row) -> entries.add(new Entry(utf8(row.getName()), row.getName(), row, null)));
    entries.sort(Comparator.comparing(Entry::sortKey, Arrays::compareUnsigned));
    return entries;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static boolean startsWith(byte[] s, byte[] p) {
    return s.length >= p.length && Arrays.equals(s, 0, p.length, p, 0, p.length);
  }
}
