package org.tropos.om.db;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Key encodings of the OM's tables. Ids are 8 bytes big-endian so that a directory's children (bucket id, parent
 * id, name) are one contiguous key range in name order.
 */
public final class OmDbKeys {
  private OmDbKeys() {
  }

  public static byte[] volume(String volume) {
    return utf8(volume);
  }

  public static byte[] bucket(String volume, String bucket) {
    return utf8(volume + "/" + bucket);
  }

  /** Prefix of every bucket of a volume. */
  public static byte[] bucketsOf(String volume) {
    return utf8(volume + "/");
  }

  /** A file or directory in an FSO bucket, or (parent = bucket id) a key of an OBJECT_STORE bucket. */
  public static byte[] child(long bucketId, long parentId, String name) {
    byte[] n = utf8(name);
    return ByteBuffer.allocate(16 + n.length).putLong(bucketId).putLong(parentId).put(n).array();
  }

  /** Prefix of every child of a directory (or every key of an OBJECT_STORE bucket). */
  public static byte[] childrenOf(long bucketId, long parentId) {
    return ByteBuffer.allocate(16).putLong(bucketId).putLong(parentId).array();
  }

  /** The name part of a {@link #child} key. */
  public static String childName(byte[] key) {
    return new String(key, 16, key.length - 16, StandardCharsets.UTF_8);
  }

  /** Prefix of everything of a bucket in a table keyed by bucket id first. */
  public static byte[] bucketPrefix(long bucketId) {
    return ByteBuffer.allocate(8).putLong(bucketId).array();
  }

  /** A prefix ACL's row: bucket id, prefix. */
  public static byte[] prefix(long bucketId, String prefix) {
    byte[] p = utf8(prefix);
    return ByteBuffer.allocate(8 + p.length).putLong(bucketId).put(p).array();
  }

  public static byte[] ids(long first, long second) {
    return ByteBuffer.allocate(16).putLong(first).putLong(second).array();
  }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A key that is a name in UTF-8 ({@link #utf8}), as the name. */
  public static String name(byte[] key) {
    return new String(key, StandardCharsets.UTF_8);
  }
}
