package org.tropos.s3.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.error.S3IOException;

class FormDataReaderTest {
  private static final String BOUNDARY = "b0undary-42";

  /** A body as a browser sends it: fields, the file, a field after the file. */
  private static byte[] form(byte[] file) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(("preamble to ignore\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\n"
        + "photos/${filename}\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"Content-Type\"\r\n\r\n"
        + "image/jpeg\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\";"
        + " filename=\"a \\\"b\\\".jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").getBytes(StandardCharsets.UTF_8));
    body.write(file);
    body.write(("\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"after\"\r\n\r\nignored\r\n--"
        + BOUNDARY + "--\r\nepilogue").getBytes(StandardCharsets.UTF_8));
    return body.toByteArray();
  }

  /** Hands out at most a few bytes per read, so that every boundary falls across reads somewhere. */
  private static InputStream trickle(byte[] bytes, int seed) {
    Random random = new Random(seed);
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] into, int offset, int length) {
        return super.read(into, offset, Math.min(length, 1 + random.nextInt(97)));
      }
    };
  }

  private static String text(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void fieldsAndFileComeOutWhateverTheReadSizes() throws Exception {
    byte[] file = new byte[300_000];
    new Random(7).nextBytes(file);
    // Content that looks like the start of a boundary, and one that is a boundary but for its last byte.
    byte[] tricky = ("\r\n--" + BOUNDARY.substring(0, 5) + "\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1)
        + "X").getBytes(StandardCharsets.UTF_8);
    System.arraycopy(tricky, 0, file, 1000, tricky.length);
    System.arraycopy(tricky, 0, file, file.length - tricky.length, tricky.length);
    for (int seed = 0; seed < 20; seed++) {
      FormDataReader reader = new FormDataReader(trickle(form(file), seed), BOUNDARY);
      assertEquals(new FormDataReader.Part("key", null, null), reader.next());
      assertEquals("photos/${filename}", text(reader.content()));
      assertEquals("Content-Type", reader.next().name());
      assertEquals("image/jpeg", text(reader.content()));
      assertEquals(new FormDataReader.Part("file", "a \"b\".jpg", "image/jpeg"), reader.next());
      assertArrayEquals(file, reader.content().readAllBytes());
      assertEquals("after", reader.next().name());
      assertNull(reader.next());
      assertNull(reader.next());
    }
  }

  @Test
  void aPartNotReadIsSkipped() throws Exception {
    FormDataReader reader = new FormDataReader(new ByteArrayInputStream(form(new byte[100_000])), BOUNDARY);
    assertEquals("key", reader.next().name());
    assertEquals("Content-Type", reader.next().name());
    assertEquals("file", reader.next().name());
    assertEquals("after", reader.next().name());
    assertEquals("ignored", text(reader.content()));
    assertNull(reader.next());
  }

  @Test
  void aBodyCutShortIsMalformed() throws Exception {
    byte[] cut = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--"
        + BOUNDARY.substring(0, 4)).getBytes(StandardCharsets.UTF_8);
    FormDataReader reader = new FormDataReader(new ByteArrayInputStream(cut), BOUNDARY);
    assertEquals("file", reader.next().name());
    S3IOException e = assertThrows(S3IOException.class, () -> reader.content().readAllBytes());
    assertEquals(S3ErrorCode.MALFORMED_POST_REQUEST, e.error().errorCode());
  }

  @Test
  void aPartWithoutANameIsMalformed() {
    byte[] body = ("--" + BOUNDARY + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + BOUNDARY + "--\r\n")
        .getBytes(StandardCharsets.UTF_8);
    FormDataReader reader = new FormDataReader(new ByteArrayInputStream(body), BOUNDARY);
    assertThrows(S3IOException.class, reader::next);
  }

  @Test
  void boundaryComesFromAFormContentTypeOnly() {
    assertEquals("abc", FormDataReader.boundary("multipart/form-data; boundary=abc"));
    assertEquals("a b", FormDataReader.boundary("Multipart/Form-Data;charset=utf-8; BOUNDARY=\"a b\""));
    assertNull(FormDataReader.boundary("multipart/mixed; boundary=abc"));
    assertNull(FormDataReader.boundary("multipart/form-data"));
    assertNull(FormDataReader.boundary(null));
  }
}
