package org.tropos.client.hadoop;

import org.apache.hadoop.fs.Path;

/**
 * Where a path of the rooted namespace points: {@code /} lists volumes, {@code /volume} its buckets,
 * {@code /volume/bucket} is the bucket's root directory and anything deeper a key (file or directory) in it.
 *
 * @param key the path inside the bucket, without a leading '/' ("" at bucket level and above)
 */
record TroposPath(String volume, String bucket, String key) {
  static TroposPath of(Path path) {
    String p = path.toUri().getPath();
    String[] parts = p.replaceAll("^/+", "").split("/", 3);
    String volume = parts.length > 0 ? parts[0] : "";
    String bucket = parts.length > 1 ? parts[1] : "";
    String key = parts.length > 2 ? parts[2].replaceAll("/+$", "") : "";
    return new TroposPath(volume, bucket, key);
  }

  boolean isRoot() {
    return volume.isEmpty();
  }

  boolean isVolume() {
    return !volume.isEmpty() && bucket.isEmpty();
  }

  boolean isBucket() {
    return !bucket.isEmpty() && key.isEmpty();
  }

  boolean isKey() {
    return !key.isEmpty();
  }

  boolean sameBucket(TroposPath other) {
    return volume.equals(other.volume) && bucket.equals(other.bucket);
  }

  @Override
  public String toString() {
    return "/" + volume + (bucket.isEmpty() ? "" : "/" + bucket) + (key.isEmpty() ? "" : "/" + key);
  }
}
