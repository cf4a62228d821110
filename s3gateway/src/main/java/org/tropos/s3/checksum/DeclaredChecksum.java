package org.tropos.s3.checksum;

import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;

/**
 * The checksum an upload (PutObject, UploadPart) declares, as S3 reads it: a value in an {@code x-amz-checksum-*}
 * header, or one announced by {@code x-amz-trailer} to follow an aws-chunked body, or only an algorithm
 * ({@code x-amz-sdk-checksum-algorithm}, {@code x-amz-checksum-algorithm}) for the store to compute. An upload that
 * declares none gets a CRC64NVME, as S3 gives every new object. The body is checked against the value before it
 * is committed: a mismatch is BadDigest and nothing is stored.
 *
 * @param algorithm the checksum's algorithm
 * @param headerValue the value the headers carry (base64), or null
 * @param inTrailer whether the value comes as a trailer of the aws-chunked body
 */
public record DeclaredChecksum(ChecksumAlgorithm algorithm, String headerValue, boolean inTrailer) {
  /** What S3 computes when an upload declares nothing. */
  public static final ChecksumAlgorithm DEFAULT = ChecksumAlgorithm.CRC64NVME;
  private static final String[] ALGORITHM_HEADERS = {"x-amz-sdk-checksum-algorithm", "x-amz-checksum-algorithm"};

  /** The checksum {@code request} declares; InvalidRequest for a malformed or contradictory declaration. */
  public static DeclaredChecksum of(S3Request request) throws S3Error {
    return of(request::header, request.headers().names());
  }

  /**
   * The same, from values found by name (case-insensitively) with {@code header} among {@code names}: a request's
   * headers, or the fields of a browser form.
   */
  public static DeclaredChecksum of(UnaryOperator<String> header, Iterable<String> names) throws S3Error {
    ChecksumAlgorithm inHeader = null;
    String value = null;
    for (String name : names) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (!lower.startsWith(ChecksumAlgorithm.PREFIX) || lower.equals(ObjectChecksum.TYPE)
          || lower.equals("x-amz-checksum-algorithm") || lower.equals("x-amz-checksum-mode")) {
        continue;
      }
      ChecksumAlgorithm a = ChecksumAlgorithm.ofHeader(lower).orElseThrow(() -> S3ErrorCode.NOT_IMPLEMENTED
          .error(lower + " is not a checksum this store computes: the object would not be checked as asked"));
      if (inHeader != null && inHeader != a) {
        throw S3ErrorCode.INVALID_REQUEST.error("Expecting a single x-amz-checksum- header. Multiple checksum Types"
            + " are not allowed.");
      }
      inHeader = a;
      value = header.apply(lower).strip();
      checkValue(a, value);
    }
    ChecksumAlgorithm inTrailer = trailer(header.apply("x-amz-trailer"));
    if (inHeader != null && inTrailer != null) {
      throw S3ErrorCode.INVALID_REQUEST.error("Expecting a single x-amz-checksum- header or trailer, not both.");
    }
    ChecksumAlgorithm declared = inHeader != null ? inHeader : inTrailer;
    for (String algorithmHeader : ALGORITHM_HEADERS) {
      String named = header.apply(algorithmHeader);
      if (named == null) {
        continue;
      }
      ChecksumAlgorithm a = ChecksumAlgorithm.named(named).orElseThrow(() -> S3ErrorCode.INVALID_REQUEST
          .error("Value for " + algorithmHeader + " header is invalid."));
      if (declared != null && declared != a) {
        throw S3ErrorCode.INVALID_REQUEST.error("Value for " + algorithmHeader + " header is invalid: it names " + a
            + " but the checksum sent is " + declared + ".");
      }
      declared = a;
    }
    return new DeclaredChecksum(declared == null ? DEFAULT : declared, value, inTrailer != null);
  }

  /** The checksum x-amz-trailer ({@code trailer}) announces, or null. */
  private static ChecksumAlgorithm trailer(String trailer) throws S3Error {
    if (trailer == null) {
      return null;
    }
    Optional<ChecksumAlgorithm> a = ChecksumAlgorithm.ofHeader(trailer);
    if (a.isEmpty()) {
      throw S3ErrorCode.INVALID_REQUEST.error("The x-amz-trailer " + trailer.strip() + " is not a checksum this"
          + " store computes.");
    }
    return a.get();
  }

  /**
   * BadDigest unless {@code value} is base64 of a checksum of {@code algorithm}'s length: a value that is not one
   * cannot match the body (as S3 answers it); refused before the body is read.
   */
  public static void checkValue(ChecksumAlgorithm algorithm, String value) throws S3Error {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      raw = null;
    }
    if (raw == null || raw.length != algorithm.bytes()) {
      throw mismatch(algorithm);
    }
  }

  private static S3Error mismatch(ChecksumAlgorithm algorithm) {
    return S3ErrorCode.BAD_DIGEST.error("The " + algorithm + " you specified did not match the calculated"
        + " checksum.");
  }

  /**
   * Checks what the body turned out to be against the value declared ({@code trailerValue}: the one its trailer
   * carried), and returns the checksum to keep with the object.
   */
  public ObjectChecksum verify(byte[] computed, String trailerValue) throws S3Error {
    String sent = inTrailer ? trailerValue : headerValue;
    if (inTrailer) {
      checkValue(algorithm, sent);
    }
    ObjectChecksum actual = ObjectChecksum.fullObject(algorithm, computed);
    if (sent != null && !sent.equals(actual.value())) {
      throw mismatch(algorithm);
    }
    return actual;
  }
}
