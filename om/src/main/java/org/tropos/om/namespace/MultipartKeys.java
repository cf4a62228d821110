package org.tropos.om.namespace;

import java.nio.ByteBuffer;
import org.tropos.om.db.OmDbKeys;
import org.tropos.proto.om.db.BucketRow;

/** The database keys of multipart uploads and their parts. */
final class MultipartKeys {
  private MultipartKeys() {
  }

  /** An upload's row: the bucket's prefix, the key, a zero byte, the upload id. */
  static byte[] upload(BucketRow bucket, String key, String uploadId) {
    return concat(OmDbKeys.bucketPrefix(bucket.getObjectId()), OmDbKeys.utf8(key), new byte[] {0},
        OmDbKeys.utf8(uploadId));
  }

  /** The prefix of the rows of a bucket's uploads of keys starting with {@code prefix}. */
  static byte[] uploadsOf(BucketRow bucket, String prefix) {
    return concat(OmDbKeys.bucketPrefix(bucket.getObjectId()), OmDbKeys.utf8(prefix));
  }

  /**
   * Where a listing of uploads resumes: after every upload of {@code keyMarker} when no upload id marker is given,
   * else after that upload.
   */
  static byte[] uploadsAfter(BucketRow bucket, String keyMarker, String uploadIdMarker) {
    return uploadIdMarker.isEmpty() ? concat(OmDbKeys.bucketPrefix(bucket.getObjectId()), OmDbKeys.utf8(keyMarker),
        new byte[] {1}) : after(upload(bucket, keyMarker, uploadIdMarker));
  }

  /** The prefix of an upload's part rows. */
  static byte[] partsOf(String uploadId) {
    return concat(OmDbKeys.utf8(uploadId), new byte[] {0});
  }

  /** A part's row, after its upload's prefix by part number. */
  static byte[] part(String uploadId, int number) {
    return concat(partsOf(uploadId), ByteBuffer.allocate(4).putInt(number).array());
  }

  /** The first key after {@code key}. */
  private static byte[] after(byte[] key) {
    return concat(key, new byte[] {0});
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    ByteBuffer out = ByteBuffer.allocate(length);
    for (byte[] p : parts) {
      out.put(p);
    }
    return out.array();
  }
}
