package org.tropos.s3.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One S3 request as the operations see it: method, bucket and key (from the path, or the bucket from the host
 * name in virtual-host style), decoded query parameters, headers and the streaming body.
 */
public final class S3Request {
  private final String method;
  private final String rawPath;
  private final Map<String, List<String>> query;
  private final HttpHeaders headers;
  private final String bucket;
  private final String key;
  private final InputStream body;
  private final boolean virtualHost;
  private final String from;
  private final boolean secure;

  private S3Request(String method, String rawPath, Map<String, List<String>> query, HttpHeaders headers,
      String bucket, String key, InputStream body, boolean virtualHost, String from, boolean secure) {
    this.method = method;
    this.from = from;
    this.secure = secure;
    this.virtualHost = virtualHost;
    this.rawPath = rawPath;
    this.query = query;
    this.headers = headers;
    this.bucket = bucket;
    this.key = key;
    this.body = body;
  }

  /** Parses {@code request}; {@code domains} are the gateway's names for virtual-host-style addressing. */
  static S3Request of(HttpRequest request, List<String> domains, InputStream body) {
    return of(request, domains, body, null, false);
  }

  /** The same, for a request that came from {@code from} (null: unknown), over TLS or not ({@code secure}). */
  static S3Request of(HttpRequest request, List<String> domains, InputStream body, SocketAddress from,
      boolean secure) {
    QueryStringDecoder decoder = new QueryStringDecoder(request.uri(), StandardCharsets.UTF_8, true, 1024, true);
    String rawPath = decoder.rawPath();
    // '+' in a path is a plus sign, not a space (the path is not form-encoded).
    String path = URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
    String hostBucket = bucketFromHost(request.headers().get("host"), domains);
    String bucket;
    String key;
    String rest = path.startsWith("/") ? path.substring(1) : path;
    if (hostBucket != null) {
      bucket = hostBucket;
      key = rest;
    } else {
      int slash = rest.indexOf('/');
      bucket = slash < 0 ? rest : rest.substring(0, slash);
      key = slash < 0 ? "" : rest.substring(slash + 1);
    }
    return new S3Request(request.method().name(), rawPath, decoder.parameters(), request.headers(), bucket, key,
        body, hostBucket != null, from instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : "",
        secure);
  }

  private static String bucketFromHost(String host, List<String> domains) {
    if (host == null) {
      return null;
    }
    String name = host.toLowerCase(Locale.ROOT);
    int colon = name.lastIndexOf(':');
    if (colon > 0 && name.indexOf(']') < colon) {
      name = name.substring(0, colon);
    }
    for (String domain : domains) {
      String suffix = "." + domain.toLowerCase(Locale.ROOT);
      if (name.endsWith(suffix) && name.length() > suffix.length()) {
        return name.substring(0, name.length() - suffix.length());
      }
    }
    return null;
  }

  /** The client's address, as the connection shows it ("" when unknown). */
  public String from() {
    return from;
  }

  /** Whether the request came over TLS (HTTPS). */
  public boolean secure() {
    return secure;
  }

  public String method() {
    return method;
  }

  /** The path exactly as sent (still percent-encoded), for the signature. */
  public String rawPath() {
    return rawPath;
  }

  /** The path with the bucket in front also in virtual-host style (Signature V2 signs that). */
  public String resourcePath() {
    return virtualHost ? "/" + bucket + (rawPath.isEmpty() ? "/" : rawPath) : rawPath;
  }

  /** The x-amz-* headers by lower-case name, values joined by commas. */
  public Map<String, String> amzHeaders() {
    Map<String, String> amz = new TreeMap<>();
    for (String name : headers.names()) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.startsWith("x-amz-")) {
        amz.put(lower, header(name));
      }
    }
    return amz;
  }

  public Map<String, List<String>> query() {
    return query;
  }

  public boolean hasParam(String name) {
    return query.containsKey(name);
  }

  /** The first value of a query parameter, or null. */
  public String param(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** A header's values joined by commas, or null. */
  public String header(String name) {
    List<String> values = headers.getAll(name);
    return values.isEmpty() ? null : String.join(",", values);
  }

  public HttpHeaders headers() {
    return headers;
  }

  /** The bucket, or "" for the service (ListBuckets). */
  public String bucket() {
    return bucket;
  }

  /** The key, or "" for a bucket-level request. */
  public String key() {
    return key;
  }

  public InputStream body() {
    return body;
  }

  /**
   * Lets the body come now, before the operation reads it: a client that sent {@code Expect: 100-continue}
   * then streams it while the operation prepares (an upload opening its key). Call it only once the request
   * passed its checks; reading the body does the same.
   */
  public void acceptBody() {
    if (body instanceof BodyPipe pipe) {
      pipe.sendContinue();
    }
  }
}
