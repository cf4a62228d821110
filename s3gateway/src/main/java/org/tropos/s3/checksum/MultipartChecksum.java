package org.tropos.s3.checksum;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tropos.s3.checksum.ObjectChecksum.Type;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;

/**
 * The checksum of an object a multipart upload makes, from its parts' (S3's rules): COMPOSITE is the checksum of the
 * parts' checksums joined, with {@code -N} for N parts; FULL_OBJECT, for CRCs only, is the CRC of every byte,
 * combined from the parts' CRCs and sizes ({@link CrcCombine}) without reading a byte.
 *
 * @param algorithm what CreateMultipartUpload asked for ({@code x-amz-checksum-algorithm}), or null
 * @param type the type it asked for ({@code x-amz-checksum-type}), or the algorithm's default
 */
public record MultipartChecksum(ChecksumAlgorithm algorithm, Type type) {
  /** The upload metadata entry recording the algorithm asked for (the type goes in {@link ObjectChecksum#TYPE}). */
  public static final String ALGORITHM = "x-amz-checksum-algorithm";

  /** What CreateMultipartUpload asks for; InvalidRequest for an unknown or impossible combination. */
  public static MultipartChecksum ofCreate(S3Request request) throws S3Error {
    String algorithmHeader = request.header(ALGORITHM);
    String typeHeader = request.header(ObjectChecksum.TYPE);
    ChecksumAlgorithm algorithm = null;
    if (algorithmHeader != null) {
      algorithm = ChecksumAlgorithm.named(algorithmHeader).orElseThrow(() -> S3ErrorCode.INVALID_REQUEST
          .error("Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32,"
              + " CRC32C, CRC64NVME, SHA1, SHA256]"));
    }
    Type type = null;
    if (typeHeader != null) {
      try {
        type = Type.valueOf(typeHeader.strip());
      } catch (IllegalArgumentException e) {
        throw S3ErrorCode.INVALID_REQUEST.error("Value for x-amz-checksum-type header is invalid.");
      }
      if (algorithm == null) {
        throw S3ErrorCode.INVALID_REQUEST.error("The x-amz-checksum-type header can only be used with the"
            + " x-amz-checksum-algorithm header.");
      }
    }
    return of(algorithm, type);
  }

  /** What the upload was created with, from its metadata. */
  public static MultipartChecksum ofUpload(Map<String, String> metadata) throws S3Error {
    String algorithm = metadata.get(ALGORITHM);
    String type = metadata.get(ObjectChecksum.TYPE);
    return of(algorithm == null ? null : ChecksumAlgorithm.named(algorithm).orElse(null),
        type == null ? null : Type.valueOf(type));
  }

  private static MultipartChecksum of(ChecksumAlgorithm algorithm, Type type) throws S3Error {
    if (algorithm == null) {
      return new MultipartChecksum(null, null);
    }
    Type chosen = type != null ? type : algorithm == ChecksumAlgorithm.CRC64NVME ? Type.FULL_OBJECT : Type.COMPOSITE;
    if (chosen == Type.FULL_OBJECT && !algorithm.isCrc()) {
      throw S3ErrorCode.INVALID_REQUEST.error("The FULL_OBJECT checksum type cannot be used with the " + algorithm
          + " checksum algorithm.");
    }
    if (chosen == Type.COMPOSITE && algorithm == ChecksumAlgorithm.CRC64NVME) {
      throw S3ErrorCode.INVALID_REQUEST.error("The COMPOSITE checksum type cannot be used with the CRC64NVME"
          + " checksum algorithm.");
    }
    return new MultipartChecksum(algorithm, chosen);
  }

  /** The upload metadata that records it (nothing when none was asked for). */
  public Map<String, String> asUploadMetadata() {
    return algorithm == null ? Map.of() : Map.of(ALGORITHM, algorithm.name(), ObjectChecksum.TYPE, type.name());
  }

  /** How a part's checksum is recorded in the OM: its algorithm and value. */
  public static String partEntry(ObjectChecksum part) {
    return part.algorithm().name() + ":" + part.value();
  }

  /** A part's checksum as {@link #partEntry} recorded it; empty for a part kept without one (a copied range). */
  public static Optional<ObjectChecksum> ofPartEntry(String entry) {
    int colon = entry.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    return ChecksumAlgorithm.named(entry.substring(0, colon))
        .map(a -> new ObjectChecksum(a, entry.substring(colon + 1), Type.FULL_OBJECT));
  }

  /** A part as the joining needs it: its number, its checksum entry ({@link #partEntry}, or empty) and its size. */
  public record Part(int number, String checksum, long size) {
  }

  /**
   * The checksum of the object {@code parts} make, in order; empty when some part has none (a copied range) or, with
   * nothing asked at creation, when the parts used different algorithms. InvalidRequest when a part's algorithm is
   * not the one the upload was created with.
   */
  public Optional<ObjectChecksum> join(List<Part> parts) throws S3Error {
    ChecksumAlgorithm used = null;
    for (Part part : parts) {
      Optional<ObjectChecksum> c = ofPartEntry(part.checksum());
      if (c.isEmpty()) {
        return Optional.empty();
      }
      if (algorithm != null && c.get().algorithm() != algorithm) {
        throw S3ErrorCode.INVALID_REQUEST.error("The upload was created for " + algorithm + " checksums, but part "
            + part.number() + " has a " + c.get().algorithm() + " checksum.");
      }
      if (used != null && used != c.get().algorithm()) {
        return Optional.empty();
      }
      used = c.get().algorithm();
    }
    if (used == null) {
      return Optional.empty();
    }
    Type joined = type != null ? type : used == ChecksumAlgorithm.CRC64NVME ? Type.FULL_OBJECT : Type.COMPOSITE;
    return Optional.of(joined == Type.FULL_OBJECT ? fullObject(used, parts) : composite(used, parts));
  }

  private static ObjectChecksum composite(ChecksumAlgorithm algorithm, List<Part> parts) {
    ChecksumAlgorithm.Hasher hasher = algorithm.newHasher();
    for (Part part : parts) {
      byte[] raw = ofPartEntry(part.checksum()).orElseThrow().raw();
      hasher.update(raw, 0, raw.length);
    }
    return new ObjectChecksum(algorithm, Base64.getEncoder().encodeToString(hasher.value()) + "-" + parts.size(),
        Type.COMPOSITE);
  }

  private static ObjectChecksum fullObject(ChecksumAlgorithm algorithm, List<Part> parts) {
    long crc = 0;
    boolean first = true;
    for (Part part : parts) {
      long partCrc = value(ofPartEntry(part.checksum()).orElseThrow().raw());
      crc = first ? partCrc : CrcCombine.combine(algorithm, crc, partCrc, part.size());
      first = false;
    }
    return ObjectChecksum.fullObject(algorithm, ChecksumAlgorithm.bigEndian(crc, algorithm.bytes()));
  }

  private static long value(byte[] raw) {
    return raw.length == 8 ? ByteBuffer.wrap(raw).getLong() : ByteBuffer.wrap(raw).getInt() & 0xFFFFFFFFL;
  }
}
