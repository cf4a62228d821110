package org.tropos.s3.ops;

import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/** One byte range of a GET ({@code bytes=a-b}, {@code bytes=a-}, {@code bytes=-n}), clamped to the object. */
record ByteRange(long first, long last) {
  long length() {
    return last - first + 1;
  }

  /**
   * The range asked for, or null to send the whole object (no header, a syntax S3 ignores, several ranges). A
   * range that starts past the end, as every range of an empty object does, is InvalidRange.
   */
  static ByteRange parse(String header, long size) throws S3Error {
    if (header == null) {
      return null;
    }
    String spec = header.strip();
    if (!spec.startsWith("bytes=") || spec.indexOf(',') >= 0) {
      return null;
    }
    spec = spec.substring("bytes=".length());
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return null;
    }
    try {
      String from = spec.substring(0, dash).strip();
      String to = spec.substring(dash + 1).strip();
      if (from.isEmpty()) {
        long suffix = Long.parseLong(to);
        if (suffix > 0 && size == 0) {
          throw S3ErrorCode.INVALID_RANGE.error("The requested range is not satisfiable: the object is empty");
        }
        return suffix <= 0 ? null : new ByteRange(Math.max(0, size - suffix), size - 1);
      }
      long first = Long.parseLong(from);
      long last = to.isEmpty() ? size - 1 : Math.min(Long.parseLong(to), size - 1);
      if (first >= size) {
        throw S3ErrorCode.INVALID_RANGE.error("The requested range is not satisfiable");
      }
      return last < first ? null : new ByteRange(first, last);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
