package org.tropos.s3.auth;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * Checks a request's AWS signature (V4 or V2, in the Authorization header, a presigned URL's query or a form):
 * this builds what was signed from the request, the OM checks it against the access id's secret
 * ({@link S3Users}). An unsigned request comes from the anonymous caller, who gets only what is public.
 * The body's hash is the caller's to verify while it streams ({@link Caller#payloadHash}).
 *
 * <p>Thread-safe.
 */
public final class RequestAuthenticator {
  public static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  private static final Duration MAX_SKEW = Duration.ofMinutes(15);
  private static final long MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

  private final S3Users users;

  public RequestAuthenticator(S3Users users) {
    this.users = users;
  }

  /**
   * Verifies the request. {@code query} holds decoded parameters; {@code header} returns a header's value (all
   * values joined by commas) by lower-case name, or null.
   */
  public Caller authenticate(String method, String rawPath, Map<String, List<String>> query,
      UnaryOperator<String> header, Instant now) throws S3Error {
    return authenticate(method, rawPath, rawPath, query, header, Map.of(), now);
  }

  /**
   * As above; Signature V2 also needs the bucket-qualified path ({@code /bucket/key} even in virtual-host style)
   * and the request's x-amz-* headers by lower-case name.
   */
  public Caller authenticate(String method, String rawPath, String resourcePath, Map<String, List<String>> query,
      UnaryOperator<String> header, Map<String, String> amzHeaders, Instant now) throws S3Error {
    String authorization = header.apply("authorization");
    if (authorization != null && authorization.startsWith("AWS ")) {
      return fromV2Header(method, resourcePath, query, header, amzHeaders, authorization, now);
    }
    if (authorization != null) {
      return fromHeader(method, rawPath, query, header, authorization, now);
    }
    if (query.containsKey("X-Amz-Signature")) {
      return fromQuery(method, rawPath, query, header, now);
    }
    if (query.containsKey("Signature") && query.containsKey("AWSAccessKeyId")) {
      return fromV2Query(method, resourcePath, query, header, amzHeaders, now);
    }
    return Caller.ANONYMOUS;
  }

  /**
   * The caller of a browser-form upload (POST object), from the form's fields (lower-case names): the anonymous
   * caller for a form with no policy, else whoever signed the policy, with Signature V4
   * ({@code x-amz-signature} over the policy) or V2 ({@code signature}). The policy's own conditions are
   * {@link PostPolicy}'s to check.
   */
  public Caller authenticateForm(Map<String, String> fields) throws S3Error {
    String policy = fields.get("policy");
    String v4Signature = fields.get("x-amz-signature");
    String v2Signature = fields.get("signature");
    if (policy == null) {
      if (v4Signature != null || v2Signature != null) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("Bucket POST with a signature must contain a field named"
            + " 'policy'");
      }
      return Caller.ANONYMOUS;
    }
    if (v4Signature != null) {
      return verifyFormV4(fields, policy, v4Signature);
    }
    String accessId = fields.get("awsaccesskeyid");
    if (v2Signature == null || accessId == null) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Bucket POST with a policy must contain fields named 'signature' and"
          + " 'AWSAccessKeyId' (Signature V2) or 'x-amz-signature' and 'x-amz-credential' (V4)");
    }
    return verifyV2(accessId, path -> policy, "", v2Signature);
  }

  private Caller verifyFormV4(Map<String, String> fields, String policy, String signature) throws S3Error {
    if (!SigV4.ALGORITHM.equals(fields.get("x-amz-algorithm"))) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("x-amz-algorithm must be " + SigV4.ALGORITHM);
    }
    String credential = fields.get("x-amz-credential");
    String[] scope = credential == null ? new String[0] : credential.split("/");
    if (scope.length != 5 || !"aws4_request".equals(scope[4])) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("x-amz-credential must be <access id>/<yyyyMMdd>/<region>/<service>"
          + "/aws4_request");
    }
    CheckS3SignatureRequest proof = v4Proof(scope[0], scope[1], scope[2], scope[3], policy, signature.strip());
    S3Users.Proven proven = users.checkV4(scope[0], scope[1], scope[2], scope[3], policy, signature.strip());
    return new Caller(scope[0], proven.administrator(), proven.policies(), UNSIGNED_PAYLOAD, null, null, null, null,
        proof, null);
  }

  private Caller fromV2Header(String method, String resourcePath, Map<String, List<String>> query,
      UnaryOperator<String> header, Map<String, String> amzHeaders, String authorization, Instant now)
      throws S3Error {
    int colon = authorization.lastIndexOf(':');
    if (colon < 4) {
      throw S3ErrorCode.ACCESS_DENIED.error("Malformed Signature V2 authorization: expected AWS <access"
          + " id>:<signature>");
    }
    String accessId = authorization.substring(4, colon).strip();
    String amzDate = header.apply("x-amz-date");
    String date = header.apply("date");
    Instant signedAt = amzDate != null ? parseAnyDate(amzDate) : parseAnyDate(date);
    checkSkew(signedAt, now);
    String signature = authorization.substring(colon + 1).strip();
    return verifyV2(accessId, path -> SigV2.stringToSign(method, header.apply("content-md5"),
        header.apply("content-type"), amzDate != null ? "" : date, amzHeaders, path, query), resourcePath, signature);
  }

  private Caller fromV2Query(String method, String resourcePath, Map<String, List<String>> query,
      UnaryOperator<String> header, Map<String, String> amzHeaders, Instant now) throws S3Error {
    String expires = first(query, "Expires");
    try {
      if (expires == null || now.isAfter(Instant.ofEpochSecond(Long.parseLong(expires)))) {
        throw S3ErrorCode.ACCESS_DENIED.error("Request has expired");
      }
    } catch (NumberFormatException e) {
      throw S3ErrorCode.ACCESS_DENIED.error("Expires must be seconds since the epoch");
    }
    return verifyV2(first(query, "AWSAccessKeyId"), path -> SigV2.stringToSign(method,
        header.apply("content-md5"), header.apply("content-type"), expires, amzHeaders, path, query), resourcePath,
        first(query, "Signature"));
  }

  /**
   * Checks a Signature V2 over the string {@code toSign} makes of the resource path. A request to a bucket itself
   * ({@code /bucket}) may be signed as {@code /bucket/}, the form its virtual-hosted request would have: botocore
   * signs path-style bucket requests so.
   */
  private Caller verifyV2(String accessId, UnaryOperator<String> toSign, String resourcePath, String signature)
      throws S3Error {
    boolean bucketRoot = resourcePath.length() > 1 && resourcePath.indexOf('/', 1) < 0;
    List<String> signed = (bucketRoot ? List.of(resourcePath, resourcePath + "/") : List.of(resourcePath)).stream()
        .map(toSign).toList();
    S3Users.Proven proven = users.checkV2(accessId, signed, signature);
    return new Caller(accessId, proven.administrator(), proven.policies(), UNSIGNED_PAYLOAD, null, null, null, null,
        CheckS3SignatureRequest.newBuilder().setAccessId(accessId).addAllStringToSign(signed).setSignature(signature)
            .build(), null);
  }

  /** What a V4 signature proves, for the OM to check again with each call the request makes. */
  private static CheckS3SignatureRequest v4Proof(String accessId, String date, String region, String service,
      String stringToSign, String signature) {
    return CheckS3SignatureRequest.newBuilder().setAccessId(accessId).setDate(date).setRegion(region)
        .setService(service).addStringToSign(stringToSign).setSignature(signature).build();
  }

  private static Instant parseAnyDate(String value) throws S3Error {
    if (value == null) {
      throw S3ErrorCode.ACCESS_DENIED.error("The request has neither a Date nor an x-amz-date header");
    }
    try {
      return Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(value.strip()));
    } catch (DateTimeParseException e) {
      return parseDate(value.strip());
    }
  }

  private Caller fromHeader(String method, String rawPath, Map<String, List<String>> query,
      UnaryOperator<String> header, String authorization, Instant now) throws S3Error {
    if (!authorization.startsWith(SigV4.ALGORITHM + " ")) {
      throw S3ErrorCode.ACCESS_DENIED.error("Only AWS Signature Version 4 (" + SigV4.ALGORITHM + ") is supported");
    }
    Map<String, String> parts = new HashMap<>();
    for (String part : authorization.substring(SigV4.ALGORITHM.length() + 1).split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        parts.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
      }
    }
    String amzDate = header.apply("x-amz-date");
    if (amzDate == null) {
      throw S3ErrorCode.ACCESS_DENIED.error("The request has no x-amz-date header");
    }
    checkSkew(parseDate(amzDate), now);
    String payloadHash = header.apply("x-amz-content-sha256");
    if (payloadHash == null) {
      throw S3ErrorCode.INVALID_REQUEST.error("Missing required header for this request: x-amz-content-sha256");
    }
    return verify(method, rawPath, query, header, parts.get("Credential"), parts.get("SignedHeaders"),
        parts.get("Signature"), amzDate, payloadHash);
  }

  private Caller fromQuery(String method, String rawPath, Map<String, List<String>> query,
      UnaryOperator<String> header, Instant now) throws S3Error {
    if (!SigV4.ALGORITHM.equals(first(query, "X-Amz-Algorithm"))) {
      throw S3ErrorCode.ACCESS_DENIED.error("Only AWS Signature Version 4 (" + SigV4.ALGORITHM + ") is supported");
    }
    String amzDate = first(query, "X-Amz-Date");
    Instant signedAt = parseDate(amzDate);
    long expires;
    try {
      expires = Long.parseLong(first(query, "X-Amz-Expires"));
    } catch (NumberFormatException e) {
      throw S3ErrorCode.ACCESS_DENIED.error("X-Amz-Expires must be a number of seconds");
    }
    if (expires < 1 || expires > MAX_PRESIGNED_SECONDS) {
      throw S3ErrorCode.ACCESS_DENIED.error("X-Amz-Expires must be between 1 and " + MAX_PRESIGNED_SECONDS + ""
          + " seconds");
    }
    if (now.isAfter(signedAt.plusSeconds(expires))) {
      throw S3ErrorCode.ACCESS_DENIED.error("Request has expired");
    }
    if (signedAt.isAfter(now.plus(MAX_SKEW))) {
      throw S3ErrorCode.REQUEST_TIME_TOO_SKEWED.error("The request is signed in the future");
    }
    Map<String, List<String>> signedQuery = new HashMap<>(query);
    String signature = first(signedQuery, "X-Amz-Signature");
    signedQuery.remove("X-Amz-Signature");
    String payloadHash = header.apply("x-amz-content-sha256");
    return verify(method, rawPath, signedQuery, header, first(query, "X-Amz-Credential"),
        first(query, "X-Amz-SignedHeaders"), signature, amzDate, payloadHash == null ? UNSIGNED_PAYLOAD : payloadHash);
  }

  private Caller verify(String method, String rawPath, Map<String, List<String>> query, UnaryOperator<String> header,
      String credentialScope, String signedHeaderList, String signature, String amzDate, String payloadHash)
      throws S3Error {
    if (credentialScope == null || signedHeaderList == null || signature == null) {
      throw S3ErrorCode.ACCESS_DENIED.error("The authorization is missing Credential, SignedHeaders or Signature");
    }
    String[] scopeParts = credentialScope.split("/");
    if (scopeParts.length != 5 || !"aws4_request".equals(scopeParts[4])) {
      throw S3ErrorCode.ACCESS_DENIED.error("Malformed credential " + credentialScope
          + ": expected <access id>/<yyyyMMdd>/<region>/<service>/aws4_request");
    }
    if (!amzDate.startsWith(scopeParts[1])) {
      throw S3ErrorCode.ACCESS_DENIED.error("The credential's date " + scopeParts[1] + " is not the request's"
          + " " + amzDate);
    }
    List<String> signedHeaders = List.of(signedHeaderList.split(";"));
    if (!signedHeaders.contains("host")) {
      throw S3ErrorCode.ACCESS_DENIED.error("The host header must be signed");
    }
    Map<String, String> values = new HashMap<>();
    for (String name : signedHeaders) {
      String value = header.apply(name);
      values.put(name, value == null ? "" : value);
    }
    String accessId = scopeParts[0];
    String scope = String.join("/", scopeParts[1], scopeParts[2], scopeParts[3], scopeParts[4]);
    String canonical = SigV4.canonicalRequest(method, rawPath, query, signedHeaders, values, payloadHash);
    String stringToSign = SigV4.stringToSign(amzDate, scope, canonical);
    S3Users.Proven proven = users.checkV4(accessId, scopeParts[1], scopeParts[2], scopeParts[3], stringToSign,
        signature);
    return new Caller(accessId, proven.administrator(), proven.policies(), payloadHash, amzDate, scope,
        proven.signingKey(), signature, v4Proof(accessId, scopeParts[1], scopeParts[2], scopeParts[3], stringToSign,
        signature), null);
  }

  private static void checkSkew(Instant signedAt, Instant now) throws S3Error {
    if (Math.abs(now.getEpochSecond() - signedAt.getEpochSecond()) > MAX_SKEW.toSeconds()) {
      throw S3ErrorCode.REQUEST_TIME_TOO_SKEWED.error("The difference between the request time and the server's"
          + " time is too large");
    }
  }

  /**
   * An x-amz-date, {@code yyyyMMdd'T'HHmmss'Z'}, read by hand: every signed request has one, and parsing it with a
   * {@code DateTimeFormatter} was a third of a request's signature check.
   */
  static Instant parseDate(String amzDate) throws S3Error {
    if (amzDate == null || amzDate.length() != 16 || amzDate.charAt(8) != 'T' || amzDate.charAt(15) != 'Z') {
      throw malformedDate(amzDate);
    }
    try {
      return LocalDateTime.of(digits(amzDate, 0, 4), digits(amzDate, 4, 6), digits(amzDate, 6, 8),
          digits(amzDate, 9, 11), digits(amzDate, 11, 13), digits(amzDate, 13, 15)).toInstant(ZoneOffset.UTC);
    } catch (DateTimeException | NumberFormatException e) {
      throw malformedDate(amzDate);
    }
  }

  /** The decimal number in {@code s} from {@code from} to {@code to}, digits only (no sign). */
  private static int digits(String s, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw new NumberFormatException("not a digit: " + c);
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  private static S3Error malformedDate(String amzDate) {
    return S3ErrorCode.ACCESS_DENIED.error("Malformed x-amz-date " + amzDate + ": expected yyyyMMdd'T'HHmmss'Z'");
  }

  private static String first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
