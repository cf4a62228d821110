package org.tropos.s3.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.error.S3IOException;
import org.tropos.s3.io.BulkInputStream;

/**
 * Reads a {@code multipart/form-data} body part by part as it streams (RFC 7578): each part's headers, then its
 * content as a stream that ends at the next boundary. Nothing is buffered beyond one window of the body, so a
 * part as large as an object passes through in constant memory. A body that breaks the format fails with
 * MalformedPOSTRequest.
 *
 * <p>Not thread-safe: one request's worker.
 */
public final class FormDataReader {
  /** One part's name, file name (null for a plain field) and Content-Type (null when it declares none). */
  public record Part(String name, String fileName, String contentType) {
  }

  private static final int WINDOW = 64 * 1024;
  private static final int MAX_HEADER_BYTES = 8 * 1024;

  private final InputStream in;
  /** CRLF "--" boundary: what ends a part's content. */
  private final byte[] delimiter;
  private final byte[] buffer;
  private int start;
  private int end;
  private boolean eof;
  private boolean inContent;
  private boolean finished;

  /** A reader of {@code in}, whose parts are separated by {@code boundary} (from the Content-Type header). */
  public FormDataReader(InputStream in, String boundary) {
    this.in = in;
    this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    this.buffer = new byte[WINDOW + delimiter.length];
    // The body's first boundary has no CRLF before it; lending it one makes it look like every other.
    buffer[0] = '\r';
    buffer[1] = '\n';
    end = 2;
    inContent = true;
  }

  /**
   * The boundary of a {@code multipart/form-data} Content-Type, or null when the type is another one or names
   * no boundary.
   */
  public static String boundary(String contentType) {
    if (contentType == null) {
      return null;
    }
    String[] pieces = contentType.split(";");
    if (!pieces[0].strip().equalsIgnoreCase("multipart/form-data")) {
      return null;
    }
    for (int i = 1; i < pieces.length; i++) {
      String piece = pieces[i].strip();
      if (piece.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
        String value = unquote(piece.substring("boundary=".length()).strip());
        return value.isEmpty() || value.length() > 70 ? null : value;
      }
    }
    return null;
  }

  /**
   * Moves to the next part, skipping what is left of the current one's content; null after the last part.
   */
  public Part next() throws IOException {
    if (finished) {
      return null;
    }
    if (inContent) {
      skipContent();
    }
    // After a boundary: "--" closes the body, anything else up to CRLF is padding before the part's headers.
    require(2);
    if (buffer[start] == '-' && buffer[start + 1] == '-') {
      finished = true;
      return null;
    }
    String line = readLine();
    if (!line.isBlank()) {
      throw malformed("text after a boundary");
    }
    return readHeaders();
  }

  /** The current part's content, ending at the boundary that follows it. */
  public InputStream content() {
    return new BulkInputStream() {
      @Override
      public int read(byte[] into, int offset, int length) throws IOException {
        return readContent(into, offset, length);
      }
    };
  }

  private void skipContent() throws IOException {
    byte[] sink = new byte[8192];
    while (readContent(sink, 0, sink.length) >= 0) {
      // discarded: the part was not asked for
    }
  }

  private int readContent(byte[] into, int offset, int length) throws IOException {
    if (!inContent) {
      return -1;
    }
    if (length == 0) {
      return 0;
    }
    while (true) {
      int found = indexOfDelimiter();
      if (found == start) {
        start += delimiter.length;
        inContent = false;
        return -1;
      }
      // Bytes before a delimiter, or before where one could still begin, are content for sure.
      int safe = found >= 0 ? found : Math.max(start, end - delimiter.length + 1);
      if (safe > start) {
        int n = Math.min(length, safe - start);
        System.arraycopy(buffer, start, into, offset, n);
        start += n;
        return n;
      }
      if (eof) {
        throw malformed("the body ends inside a part");
      }
      fill();
    }
  }

  private int indexOfDelimiter() {
    int last = end - delimiter.length;
    outer:
    for (int i = start; i <= last; i++) {
      if (buffer[i] != '\r') {
        continue;
      }
      for (int j = 1; j < delimiter.length; j++) {
        if (buffer[i + j] != delimiter[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private Part readHeaders() throws IOException {
    String name = null;
    String fileName = null;
    String contentType = null;
    int headerBytes = 0;
    while (true) {
      String line = readLine();
      headerBytes += line.length() + 2;
      if (headerBytes > MAX_HEADER_BYTES) {
        throw malformed("a part's headers are over " + MAX_HEADER_BYTES + " bytes");
      }
      if (line.isEmpty()) {
        break;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw malformed("a part's header line has no colon");
      }
      String header = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      if (header.equals("content-disposition")) {
        name = parameter(value, "name");
        fileName = parameter(value, "filename");
      } else if (header.equals("content-type")) {
        contentType = value;
      }
    }
    if (name == null) {
      throw malformed("a part has no Content-Disposition name");
    }
    inContent = true;
    return new Part(name, fileName, contentType);
  }

  /** One CRLF-terminated line, decoded as UTF-8 (field names and file names may use it). */
  private String readLine() throws IOException {
    int from = start;
    while (true) {
      for (int i = from; i + 1 < end; i++) {
        if (buffer[i] == '\r' && buffer[i + 1] == '\n') {
          String line = new String(buffer, start, i - start, StandardCharsets.UTF_8);
          start = i + 2;
          return line;
        }
      }
      if (end - start >= MAX_HEADER_BYTES) {
        throw malformed("a line of the form is over " + MAX_HEADER_BYTES + " bytes");
      }
      if (eof) {
        throw malformed("the body ends inside a part's headers");
      }
      from = Math.max(start, end - 1);
      int before = start;
      fill();
      from -= before - start;
    }
  }

  private void require(int bytes) throws IOException {
    while (end - start < bytes) {
      if (eof) {
        throw malformed("the body ends after a boundary");
      }
      fill();
    }
  }

  /** Moves what is unread to the front of the window and reads more after it. */
  private void fill() throws IOException {
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
      end -= start;
      start = 0;
    }
    if (end == buffer.length) {
      throw malformed("a line of the form does not fit in " + buffer.length + " bytes");
    }
    int n = in.read(buffer, end, buffer.length - end);
    if (n < 0) {
      eof = true;
    } else {
      end += n;
    }
  }

  /** A parameter of a Content-Disposition value ({@code form-data; name="key"; filename="a.txt"}), or null. */
  static String parameter(String disposition, String wanted) {
    int i = disposition.indexOf(';');
    while (i >= 0 && i < disposition.length()) {
      int eq = disposition.indexOf('=', i);
      if (eq < 0) {
        return null;
      }
      String name = disposition.substring(i + 1, eq).strip().toLowerCase(Locale.ROOT);
      int valueStart = eq + 1;
      String value;
      int next;
      if (valueStart < disposition.length() && disposition.charAt(valueStart) == '"') {
        StringBuilder quoted = new StringBuilder();
        int j = valueStart + 1;
        while (j < disposition.length() && disposition.charAt(j) != '"') {
          char c = disposition.charAt(j);
          if (c == '\\' && j + 1 < disposition.length()) {
            c = disposition.charAt(++j);
          }
          quoted.append(c);
          j++;
        }
        value = quoted.toString();
        next = disposition.indexOf(';', j);
      } else {
        next = disposition.indexOf(';', valueStart);
        value = disposition.substring(valueStart, next < 0 ? disposition.length() : next).strip();
      }
      if (name.equals(wanted)) {
        return value;
      }
      i = next;
    }
    return null;
  }

  private static String unquote(String value) {
    return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
        ? value.substring(1, value.length() - 1) : value;
  }

  private static S3IOException malformed(String why) {
    return new S3IOException(S3ErrorCode.MALFORMED_POST_REQUEST.error("The body of your POST request is not"
        + " well-formed multipart/form-data: " + why));
  }
}
