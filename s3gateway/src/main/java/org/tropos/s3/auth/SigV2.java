package org.tropos.s3.auth;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * AWS Signature Version 2, still what boto3 puts in a presigned URL unless told otherwise: HMAC-SHA1 over
 * method, Content-MD5, Content-Type, the date (or the expiry, presigned), the x-amz-* headers and the resource
 * with its sub-resources.
 */
final class SigV2 {
  private static final Set<String> SUB_RESOURCES = Set.of("acl", "cors", "delete", "lifecycle", "location",
      "logging", "notification", "partNumber", "policy", "requestPayment", "response-cache-control",
      "response-content-disposition", "response-content-encoding", "response-content-language",
      "response-content-type", "response-expires", "restore", "tagging", "torrent", "uploadId", "uploads",
      "versionId", "versioning", "versions", "website");

  private SigV2() {
  }

  /**
   * The string to sign. {@code resourcePath} is the bucket-qualified path as sent ({@code /bucket/key});
   * {@code header} returns a header by lower-case name; {@code amzHeaders} are the x-amz-* headers.
   */
  static String stringToSign(String method, String contentMd5, String contentType, String dateOrExpires,
      Map<String, String> amzHeaders, String resourcePath, Map<String, List<String>> query) {
    StringBuilder out = new StringBuilder(256);
    out.append(method).append('\n').append(nullToEmpty(contentMd5)).append('\n').append(nullToEmpty(contentType))
        .append('\n').append(nullToEmpty(dateOrExpires)).append('\n');
    new TreeMap<>(amzHeaders).forEach((name, value) -> out.append(name.toLowerCase(Locale.ROOT)).append(':')
        .append(SigV4.signedText(value).strip()).append('\n'));
    out.append(resourcePath);
    char separator = '?';
    for (String name : new TreeMap<>(query).keySet()) {
      if (!SUB_RESOURCES.contains(name)) {
        continue;
      }
      out.append(separator).append(name);
      String value = query.get(name).isEmpty() ? "" : query.get(name).get(0);
      if (!value.isEmpty()) {
        out.append('=').append(value);
      }
      separator = '&';
    }
    return out.toString();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
