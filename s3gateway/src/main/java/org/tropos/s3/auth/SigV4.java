package org.tropos.s3.auth;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.tropos.common.security.S3Signatures;

/**
 * AWS Signature Version 4 arithmetic (canonical request, string to sign; the keyed part is {@link S3Signatures}'s),
 * as AWS specifies it for S3: the path is used as sent (S3 does not normalise or double-encode it), query
 * parameters are re-encoded and sorted, header values trimmed with inner runs of spaces collapsed.
 */
public final class SigV4 {
  public static final String ALGORITHM = "AWS4-HMAC-SHA256";
  public static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final Pattern SPACES = Pattern.compile(" {2,}");

  private SigV4() {
  }

  /**
   * The canonical request. {@code query} holds decoded names and values; {@code headers} the signed headers'
   * values by lower-case name.
   */
  public static String canonicalRequest(String method, String rawPath, Map<String, List<String>> query,
      List<String> signedHeaders, Map<String, String> headers, String payloadHash) {
    StringBuilder out = new StringBuilder(256);
    out.append(method).append('\n').append(rawPath.isEmpty() ? "/" : rawPath).append('\n');
    out.append(canonicalQuery(query)).append('\n');
    for (String name : signedHeaders) {
      out.append(name).append(':').append(trimValue(signedText(headers.getOrDefault(name, "")))).append('\n');
    }
    out.append('\n').append(String.join(";", signedHeaders)).append('\n').append(payloadHash);
    return out.toString();
  }

  static String canonicalQuery(Map<String, List<String>> query) {
    TreeMap<String, List<String>> sorted = new TreeMap<>();
    query.forEach((name, values) -> {
      List<String> encoded = new ArrayList<>();
      values.forEach(v -> encoded.add(uriEncode(v)));
      encoded.sort(null);
      sorted.put(uriEncode(name), encoded);
    });
    StringBuilder out = new StringBuilder();
    sorted.forEach((name, values) -> values.forEach(v -> {
      if (out.length() > 0) {
        out.append('&');
      }
      out.append(name).append('=').append(v);
    }));
    return out.toString();
  }

  /** AWS's URI encoding: unreserved characters stay, every other byte of the UTF-8 form becomes %XX. */
  public static String uriEncode(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
          || c == '.' || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return out.toString();
  }

  /**
   * The text a client signed for a header value read as ISO-8859-1 (one char per byte, as HTTP parsers read
   * headers): its bytes as UTF-8 when they are UTF-8, which is how botocore sends and signs a non-ASCII value (user
   * metadata), else as read (a client that sent ISO-8859-1 signed those characters).
   */
  static String signedText(String value) {
    if (value.chars().allMatch(c -> c < 0x80)) {
      return value;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value.getBytes(StandardCharsets.ISO_8859_1))).toString();
    } catch (CharacterCodingException e) {
      return value;
    }
  }

  private static String trimValue(String value) {
    String stripped = value.strip();
    return stripped.contains("  ") ? SPACES.matcher(stripped).replaceAll(" ") : stripped;
  }

  /** The string to sign for a request made at {@code amzDate} (yyyyMMdd'T'HHmmss'Z') within {@code scope}. */
  public static String stringToSign(String amzDate, String scope, String canonicalRequest) {
    return ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + sha256Hex(canonicalRequest);
  }

  public static String sha256Hex(String data) {
    return HexFormat.of().formatHex(sha256().digest(data.getBytes(StandardCharsets.UTF_8)));
  }

  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
