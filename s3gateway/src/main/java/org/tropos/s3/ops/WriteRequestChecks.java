package org.tropos.s3.ops;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;

/**
 * What every write (PUT, POST, copy, multipart upload) is checked for before anything is stored: S3's limit on key
 * names, and headers asking for what we do not do (object lock, appends), which are NotImplemented: an object is
 * never stored without what was asked for. Storage classes are {@link StorageClasses}'s.
 */
final class WriteRequestChecks {
  static final int MAX_KEY_BYTES = 1024;
  private static final List<String> UNSUPPORTED_HEADER_PREFIXES = List.of("x-amz-object-lock-",
      "x-amz-write-offset-bytes");

  private WriteRequestChecks() {
  }

  /** S3's limit on key names. */
  static void checkKey(String key) throws S3Error {
    if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      throw S3ErrorCode.KEY_TOO_LONG.error("Your key is too long: at most " + MAX_KEY_BYTES + " bytes");
    }
  }

  /** Refuses what a write asks for that we do not do, before anything is stored. */
  static void checkHeaders(S3Request request) throws S3Error {
    checkAsked(request.headers().names());
    ServerSideEncryption.asked(request);
  }

  /**
   * Refuses a write whose headers (or form fields) {@code names} ask for what we do not do: the object is never
   * stored without what was asked for.
   */
  static void checkAsked(Iterable<String> names) throws S3Error {
    for (String name : names) {
      String lower = name.toLowerCase(Locale.ROOT);
      for (String prefix : UNSUPPORTED_HEADER_PREFIXES) {
        if (lower.startsWith(prefix)) {
          throw S3ErrorCode.NOT_IMPLEMENTED.error(lower + " is not implemented: the object would not be stored as"
              + " asked");
        }
      }
    }
  }
}
