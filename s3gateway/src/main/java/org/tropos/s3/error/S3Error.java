package org.tropos.s3.error;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failed S3 request: one of {@link S3ErrorCode}'s errors with a message, sent to the client as S3's XML error
 * document, plus any headers S3 sends with that error (a delete marker's version, say).
 */
public final class S3Error extends Exception {
  /** Longest part of a client's name an error message repeats. */
  public static final int MAX_SHOWN = 256;

  private final S3ErrorCode code;
  private final Map<String, String> headers = new LinkedHashMap<>();

  S3Error(S3ErrorCode code, String message) {
    super(message);
    this.code = code;
  }

  public S3ErrorCode errorCode() {
    return code;
  }

  /** S3's name of the error. */
  public String code() {
    return code.code();
  }

  public int status() {
    return code.status();
  }

  /** Adds a header to send with the error. */
  public S3Error withHeader(String name, String value) {
    headers.put(name, value);
    return this;
  }

  public Map<String, String> headers() {
    return headers;
  }

  /**
   * A name the client gave, as an error message shows it: quoted, and cut at {@link #MAX_SHOWN} characters so
   * that a huge key never makes a huge error.
   */
  public static String quote(String name) {
    return "'" + (name.length() <= MAX_SHOWN ? name : name.substring(0, MAX_SHOWN) + "...") + "'";
  }
}
