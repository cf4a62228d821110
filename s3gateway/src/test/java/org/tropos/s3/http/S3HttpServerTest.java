package org.tropos.s3.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tropos.common.net.HostPort;

/** The HTTP layer on a real socket: addressing styles, streamed bodies, and the concurrency limit. */
class S3HttpServerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static HttpResponse<String> send(int port, String method, String path, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).method(method,
        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void bucketAndKeyComeFromThePathOrTheHostNameAndBodiesStreamThrough() throws Exception {
    S3Handler echo = (request, out) -> {
      try {
        String body = new String(request.body().readAllBytes(), StandardCharsets.UTF_8);
        out.send(200, (request.bucket() + "|" + request.key() + "|" + body).getBytes(StandardCharsets.UTF_8),
            "text/plain");
      } catch (IOException e) {
        out.send(500, new byte[0], null);
      }
    };
    try (S3HttpServer server = new S3HttpServer(new HostPort("127.0.0.1", 0), echo, 4, List.of("s3.example"))) {
      server.start();
      assertEquals("bkt|dir/a+b c|", send(server.port(), "GET", "/bkt/dir/a+b%20c", null).body());
      assertEquals("bkt|x/y|hello", send(server.port(), "PUT", "/bkt/x/y", "hello").body());
      // java.net.http refuses a Host header; the virtual-host case is checked on the parsed request instead.
      DefaultHttpRequest vhost = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
          "/photos/2026/cat.jpg?list-type=2");
      vhost.headers().set("Host", "my-bucket.s3.example:9878");
      S3Request parsed = S3Request.of(vhost, List.of("s3.example"), InputStream.nullInputStream());
      assertEquals("my-bucket", parsed.bucket());
      assertEquals("photos/2026/cat.jpg", parsed.key());
      assertEquals("/my-bucket/photos/2026/cat.jpg", parsed.resourcePath());
      assertEquals("2", parsed.param("list-type"));
    }
  }

  @Test
  void requestsPastTheLimitGetSlowDownAtOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    S3Handler slow = (request, out) -> {
      entered.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      out.send(200, new byte[0], null);
    };
    try (S3HttpServer server = new S3HttpServer(new HostPort("127.0.0.1", 0), slow, 1, List.of())) {
      server.start();
      CompletableFuture<HttpResponse<String>> first = HTTP.sendAsync(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + server.port() + "/b/k")).build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(entered.await(30, TimeUnit.SECONDS));
      HttpResponse<String> second = send(server.port(), "GET", "/b/k2", null);
      assertEquals(503, second.statusCode());
      assertTrue(second.body().contains("<Code>SlowDown</Code>"), second.body());
      release.countDown();
      assertEquals(200, first.get(30, TimeUnit.SECONDS).statusCode());
    }
  }

  @Test
  void aHeaderPastTheLimitIsRefusedAndTheConnectionClosedAtOnce() throws Exception {
    S3Handler never = (request, out) -> out.send(200, new byte[0], null);
    try (S3HttpServer server = new S3HttpServer(new HostPort("127.0.0.1", 0), never, 4, List.of())) {
      server.start();
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        socket.setSoTimeout(10_000);
        long start = System.nanoTime();
        OutputStream out = socket.getOutputStream();
        out.write(("GET /b/k HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(200_000) + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(answer.startsWith("HTTP/1.1 431") || answer.startsWith("HTTP/1.1 400"), answer);
        assertTrue(answer.contains("RequestHeaderSectionTooLarge"), answer);
        assertTrue(seconds < 5, "the connection closed after " + seconds + " s");
      }
    }
  }

  @Test
  void continueIsSentOnlyWhenTheOperationReadsTheBody() throws Exception {
    S3Handler handler = (request, out) -> {
      if (request.key().equals("refused")) {
        out.send(403, new byte[0], null);
        return;
      }
      try {
        out.send(200, request.body().readAllBytes(), "text/plain");
      } catch (IOException e) {
        out.send(500, new byte[0], null);
      }
    };
    try (S3HttpServer server = new S3HttpServer(new HostPort("127.0.0.1", 0), handler, 4, List.of())) {
      server.start();
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write("PUT /b/refused HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(answer.startsWith("HTTP/1.1 403"), "refused before any 100 Continue: " + answer);
        assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
      }
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write("PUT /b/ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        assertTrue(head(in).startsWith("HTTP/1.1 100 Continue"));
        out.write("hello".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertTrue(head(in).startsWith("HTTP/1.1 200"));
      }
    }
  }

  /**
   * A client sends its next request as soon as it has read the last byte of a response, which may be before the
   * server queued that response's end: the next response must still come whole, after it.
   */
  @Test
  void aRequestSentBeforeTheLastResponseEndedIsAnsweredAfterIt() throws Exception {
    CountDownLatch secondAnswered = new CountDownLatch(1);
    S3Handler handler = (request, out) -> {
      if (request.key().equals("second")) {
        out.send(200, "2nd".getBytes(StandardCharsets.US_ASCII), "text/plain");
        secondAnswered.countDown();
        return;
      }
      try {
        out.stream(200, 3, body -> {
          body.accept(ByteBuffer.wrap("1st".getBytes(StandardCharsets.US_ASCII)));
          try {
            // Every byte is out: hold the end back until the next response went out, or for a second at most.
            secondAnswered.await(1, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
    try (S3HttpServer server = new S3HttpServer(new HostPort("127.0.0.1", 0), handler, 4, List.of());
        Socket socket = startAndConnect(server)) {
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write("GET /b/first HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertTrue(head(in).startsWith("HTTP/1.1 200"));
      assertEquals("1st", new String(in.readNBytes(3), StandardCharsets.US_ASCII));
      out.write("GET /b/second HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String second = head(in);
      assertTrue(second.startsWith("HTTP/1.1 200"), "the second response: " + second);
      assertEquals("2nd", new String(in.readNBytes(3), StandardCharsets.US_ASCII));
    }
  }

  private static Socket startAndConnect(S3HttpServer server) throws IOException {
    server.start();
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /** One response head: the bytes up to the blank line that ends it. */
  private static String head(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    return head.toString();
  }
}
