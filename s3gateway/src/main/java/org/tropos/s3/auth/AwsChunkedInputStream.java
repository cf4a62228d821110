package org.tropos.s3.auth;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.tropos.common.security.S3Signatures;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.error.S3IOException;
import org.tropos.s3.io.BulkInputStream;

/**
 * Decodes an {@code aws-chunked} upload body while it streams: {@code <hex size>[;chunk-signature=<sig>]CRLF
 * <data>CRLF ... 0...CRLF [trailers] CRLF}. With signed chunks ({@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER]})
 * every chunk's signature is checked when the chunk ends, chained from the request's signature, and the trailer's
 * signature when the trailer is signed. A failure surfaces as an {@link S3IOException} before the caller has seen
 * end of stream, so nothing is committed from a body that does not check out. The checksum the trailer carries
 * ({@code x-amz-checksum-*}, announced by {@code x-amz-trailer}) is the caller's to check: {@link #trailer()}.
 *
 * <p>Not thread-safe.
 */
public final class AwsChunkedInputStream extends BulkInputStream {
  public static final String SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  public static final String SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
  public static final String UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
  private static final int MAX_LINE = 8192;

  private final InputStream in;
  private final Caller signed;
  private final boolean signedChunks;
  private final boolean signedTrailer;
  private final String trailerName;
  private String trailerValue;
  private MessageDigest chunkDigest;
  private String previousSignature;
  private String chunkSignature;
  private long chunkLeft;
  private boolean done;

  /**
   * @param payloadHash the request's x-amz-content-sha256 (one of the STREAMING-* values)
   * @param trailerHeader the request's x-amz-trailer (the checksum it will send), or null
   */
  public AwsChunkedInputStream(InputStream in, Caller signed, String payloadHash,
      String trailerHeader) throws S3Error {
    this.in = in;
    this.signed = signed;
    this.signedChunks = payloadHash.equals(SIGNED) || payloadHash.equals(SIGNED_TRAILER);
    this.signedTrailer = payloadHash.equals(SIGNED_TRAILER);
    if (!signedChunks && !payloadHash.equals(UNSIGNED_TRAILER)) {
      throw S3ErrorCode.NOT_IMPLEMENTED.error("x-amz-content-sha256 " + payloadHash + " is not implemented");
    }
    this.previousSignature = signed.seedSignature();
    this.trailerName = trailerHeader == null ? null : trailerHeader.strip().toLowerCase(Locale.ROOT);
  }

  /** The value of the trailer x-amz-trailer announced, once the body has been read to its end; else null. */
  public String trailer() {
    return trailerValue;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (done) {
      return -1;
    }
    if (chunkLeft == 0 && !startChunk()) {
      return -1;
    }
    int n = in.read(b, off, (int) Math.min(len, chunkLeft));
    if (n < 0) {
      throw new S3IOException(S3ErrorCode.INCOMPLETE_BODY.error("The aws-chunked body ended inside a chunk"));
    }
    if (chunkDigest != null) {
      chunkDigest.update(b, off, n);
    }
    chunkLeft -= n;
    if (chunkLeft == 0) {
      expectCrlf();
      verifyChunk();
    }
    return n;
  }

  /** Reads the next chunk's header; false at the final (empty) chunk, which it checks with the trailer. */
  private boolean startChunk() throws IOException {
    String header = line();
    int semicolon = header.indexOf(';');
    String size = semicolon < 0 ? header : header.substring(0, semicolon);
    try {
      chunkLeft = Long.parseLong(size.strip(), 16);
    } catch (NumberFormatException e) {
      throw malformed("bad chunk size '" + size + "'");
    }
    chunkSignature = null;
    if (semicolon >= 0) {
      String extension = header.substring(semicolon + 1).strip();
      if (extension.startsWith("chunk-signature=")) {
        chunkSignature = extension.substring("chunk-signature=".length());
      }
    }
    if (signedChunks && chunkSignature == null) {
      throw malformed("a chunk has no signature");
    }
    chunkDigest = signedChunks ? SigV4.sha256() : null;
    if (chunkLeft > 0) {
      return true;
    }
    verifyChunk();
    finishTrailer();
    done = true;
    return false;
  }

  private void verifyChunk() throws IOException {
    if (!signedChunks) {
      return;
    }
    String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + signed.amzDate() + "\n" + signed.scope() + "\n"
        + previousSignature + "\n" + SigV4.EMPTY_SHA256 + "\n" + HexFormat.of().formatHex(chunkDigest.digest());
    String expected = S3Signatures.v4Signature(signed.signingKey(), toSign);
    if (!S3Signatures.same(expected, chunkSignature)) {
      throw new S3IOException(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.error());
    }
    previousSignature = chunkSignature;
  }

  /** Reads the trailing headers up to the empty line; checks that the one announced came and their signature. */
  private void finishTrailer() throws IOException {
    Map<String, String> trailers = new LinkedHashMap<>();
    String trailerSignature = null;
    StringBuilder signedPart = new StringBuilder();
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw malformed("bad trailer line");
      }
      String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      if (name.equals("x-amz-trailer-signature")) {
        trailerSignature = value;
      } else {
        trailers.put(name, value);
        signedPart.append(name).append(':').append(value).append('\n');
      }
    }
    if (signedTrailer) {
      String toSign = "AWS4-HMAC-SHA256-TRAILER\n" + signed.amzDate() + "\n" + signed.scope() + "\n"
          + previousSignature + "\n" + SigV4.sha256Hex(signedPart.toString());
      if (trailerSignature == null || !S3Signatures.same(S3Signatures.v4Signature(signed.signingKey(), toSign),
          trailerSignature)) {
        throw new S3IOException(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.error());
      }
    }
    if (trailerName != null) {
      trailerValue = trailers.get(trailerName);
      if (trailerValue == null) {
        throw malformed("the trailer " + trailerName + " announced in x-amz-trailer is missing");
      }
    }
  }

  private void expectCrlf() throws IOException {
    if (in.read() != '\r' || in.read() != '\n') {
      throw malformed("a chunk does not end with CRLF");
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new S3IOException(S3ErrorCode.INCOMPLETE_BODY.error("The aws-chunked body ended early"));
      }
      if (c == '\n') {
        break;
      }
      if (line.size() == MAX_LINE) {
        throw malformed("a chunk header or trailer line is too long");
      }
      line.write(c);
    }
    String text = line.toString(StandardCharsets.US_ASCII);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private static S3IOException malformed(String what) {
    return new S3IOException(S3ErrorCode.INVALID_REQUEST.error("Malformed aws-chunked body: " + what));
  }
}
