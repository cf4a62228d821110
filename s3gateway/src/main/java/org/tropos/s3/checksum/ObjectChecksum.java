package org.tropos.s3.checksum;

import io.netty.handler.codec.http.HttpHeaders;
import org.tropos.s3.http.Xml;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The checksum S3 keeps with an object or a part: its algorithm, its value (base64; a composite one ends in
 * {@code -N}, the number of parts) and its type. Kept in the key's metadata under the header S3 returns it in,
 * so a copy that keeps the metadata keeps it too.
 *
 * @param algorithm what computed it
 * @param value base64 of the checksum, {@code -N} appended for a COMPOSITE checksum of N parts
 * @param type FULL_OBJECT: the checksum of every byte; COMPOSITE: the checksum of the parts' checksums
 */
public record ObjectChecksum(ChecksumAlgorithm algorithm, String value, Type type) {
  /** The metadata entry (and response header) of the checksum's type. */
  public static final String TYPE = "x-amz-checksum-type";

  /** S3's two kinds of checksum. */
  public enum Type {
    FULL_OBJECT, COMPOSITE
  }

  /** The full-object checksum whose bytes are {@code raw}. */
  public static ObjectChecksum fullObject(ChecksumAlgorithm algorithm, byte[] raw) {
    return new ObjectChecksum(algorithm, Base64.getEncoder().encodeToString(raw), Type.FULL_OBJECT);
  }

  /** The checksum recorded in a key's metadata, if any. */
  public static Optional<ObjectChecksum> in(Map<String, String> metadata) {
    for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
      String value = metadata.get(a.header());
      if (value != null) {
        Type type = Type.valueOf(metadata.getOrDefault(TYPE, Type.FULL_OBJECT.name()));
        return Optional.of(new ObjectChecksum(a, value, type));
      }
    }
    return Optional.empty();
  }

  /** The metadata entries that record it. */
  public Map<String, String> asMetadata() {
    return Map.of(algorithm.header(), value, TYPE, type.name());
  }

  /** Whether {@code name} is one of the metadata entries a checksum is recorded in. */
  public static boolean isEntry(String name) {
    return name.equals(TYPE) || ChecksumAlgorithm.ofHeader(name).isPresent();
  }

  /** The checksum's bytes; a composite checksum's without its {@code -N}. */
  public byte[] raw() {
    int dash = value.indexOf('-');
    return Base64.getDecoder().decode(dash < 0 ? value : value.substring(0, dash));
  }

  /** Writes it as S3's documents carry it: ChecksumCRC32 (or another algorithm's element) and ChecksumType. */
  public Xml addTo(Xml xml) {
    return xml.element(algorithm.xmlElement(), value).element("ChecksumType", type.name());
  }

  /** Sets the response headers that carry it (GET and HEAD with x-amz-checksum-mode: ENABLED). */
  public void addTo(HttpHeaders headers) {
    headers.set(algorithm.header(), value);
    headers.set(TYPE, type.name());
  }
}
