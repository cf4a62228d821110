package org.tropos.tools.cli.sh;

import java.time.Instant;
import java.util.Map;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.VolumeInfo;

/** What {@code tropos sh ... info} prints: one JSON object, as Ozone's shell does. */
final class Json {
  private final StringBuilder out = new StringBuilder("{\n");
  private boolean first = true;

  private Json field(String name, Object value) {
    out.append(first ? "" : ",\n").append("  ").append(quote(name)).append(" : ")
        .append(value instanceof Number || value instanceof Boolean ? value.toString() : quote(String.valueOf(value)));
    first = false;
    return this;
  }

  private Json raw(String name, String json) {
    out.append(first ? "" : ",\n").append("  ").append(quote(name)).append(" : ").append(json);
    first = false;
    return this;
  }

  private String end() {
    return out.append("\n}").toString();
  }

  static String quote(String s) {
    StringBuilder q = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> q.append("\\\"");
        case '\\' -> q.append("\\\\");
        case '\n' -> q.append("\\n");
        case '\t' -> q.append("\\t");
        default -> q.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return q.append('"').toString();
  }

  private static String time(long epochMs) {
    return Instant.ofEpochMilli(epochMs).toString();
  }

  static String volume(VolumeInfo v) {
    return new Json().field("name", v.getName()).field("owner", v.getOwner()).field("quotaInBytes", v.getQuotaBytes())
        .field("quotaInNamespace", v.getQuotaNamespace()).field("creationTime", time(v.getCreationTimeMs()))
        .field("modificationTime", time(v.getModificationTimeMs())).end();
  }

  static String bucket(BucketInfo b) {
    Json json = new Json().field("volumeName", b.getVolume()).field("name", b.getName())
        .field("bucketLayout", b.getLayout()).field("replication", ReplicationOptions.describe(b.getFactor(), b.hasEc(),
            b.getEc()))
        .field("owner", b.getOwner()).field("quotaInBytes", b.getQuotaBytes())
        .field("quotaInNamespace", b.getQuotaNamespace()).field("usedBytes", b.getUsedBytes())
        .field("usedNamespace", b.getUsedNamespace()).field("creationTime", time(b.getCreationTimeMs()))
        .field("modificationTime", time(b.getModificationTimeMs()));
    if (!b.getSourceBucket().isEmpty()) {
      json.field("sourceVolume", b.getSourceVolume()).field("sourceBucket", b.getSourceBucket());
    }
    if (b.hasEncryption()) {
      json.field("encryption", b.getEncryption().getKind());
      if (!b.getEncryption().getKmsKeyId().isEmpty()) {
        json.field("encryptionKeyName", b.getEncryption().getKmsKeyId());
      }
    }
    return json.end();
  }

  static String key(KeyInfo k) {
    StringBuilder blocks = new StringBuilder("[");
    for (KeyBlock b : k.getBlocksList()) {
      blocks.append(blocks.length() > 1 ? ", " : "").append(quote(b.getBlockId().getContainerId() + ":"
          + b.getBlockId().getLocalId() + ":" + b.getLength()));
    }
    StringBuilder metadata = new StringBuilder("{");
    for (Map.Entry<String, String> e : k.getMetadataMap().entrySet()) {
      metadata.append(metadata.length() > 1 ? ", " : "").append(quote(e.getKey())).append(": ")
          .append(quote(e.getValue()));
    }
    return new Json().field("volumeName", k.getVolume()).field("bucketName", k.getBucket()).field("name", k.getName())
        .field("directory", k.getDirectory()).field("dataSize", k.getSize())
        .field("replication", k.getDirectory() ? ""
            : ReplicationOptions.describe(k.getFactor(), k.hasEc(), k.getEc())).field("owner", k.getOwner())
        .field("creationTime", time(k.getCreationTimeMs())).field("modificationTime", time(k.getModificationTimeMs()))
        .raw("blocks", blocks.append(']').toString()).raw("metadata", metadata.append('}').toString()).end();
  }
}
