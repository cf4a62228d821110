package org.tropos.s3.ops;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** The two time formats of S3: ISO 8601 with milliseconds in XML, RFC 1123 in HTTP headers. */
final class S3Time {
  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'",
      Locale.ROOT).withZone(ZoneOffset.UTC);

  private S3Time() {
  }

  static String iso(long millis) {
    return ISO.format(Instant.ofEpochMilli(millis));
  }

  static String http(long millis) {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
  }

  /** An ISO 8601 time as S3 clients write them: with a zone or offset, or without one (UTC). */
  static Instant parseIso(String value) {
    String text = value.strip();
    try {
      return java.time.OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return java.time.LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    }
  }

  /** An HTTP date, or null if it cannot be read (S3 then ignores the condition). */
  static Instant parseHttp(String value) {
    try {
      return value == null ? null : Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(value.strip()));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * A time in an XML document, which SDKs write either way: ISO 8601, or an HTTP date (botocore, for
   * DeleteObjects' LastModifiedTime).
   */
  static Instant parseXml(String value) {
    Instant http = parseHttp(value);
    return http != null ? http : parseIso(value);
  }
}
