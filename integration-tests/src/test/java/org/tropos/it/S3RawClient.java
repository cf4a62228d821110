package org.tropos.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Any request at all, signed by the AWS SDK's own SigV4 signer and sent by its HTTP client: for the requests the
 * SDK's S3 client would never build (every sub-resource with every method) or that need a body it would not send.
 * Passing a null identity sends the request unsigned, as an anonymous caller does.
 */
final class S3RawClient implements AutoCloseable {
  /** A response: status, headers (lower-case names) and the body as text. */
  record Response(int status, Map<String, List<String>> headers, String body) {
    String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** S3's error code in the body, or "" when it has none. */
    String errorCode() {
      int start = body.indexOf("<Code>");
      return start < 0 ? "" : body.substring(start + 6, body.indexOf("</Code>", start));
    }
  }

  private final URI endpoint;
  private final AwsBasicCredentials identity;
  private final SdkHttpClient http = ApacheHttpClient.create();
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

  S3RawClient(URI endpoint, String accessId, String secret) {
    this.endpoint = endpoint;
    this.identity = accessId == null ? null : AwsBasicCredentials.create(accessId, secret);
  }

  /**
   * Sends {@code method} to {@code path} (already URL-encoded, with any query: {@code /bucket/key?acl}), with
   * {@code headers} and {@code body} (null for none).
   */
  Response send(String method, String path, Map<String, String> headers, String body) {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    SdkHttpRequest.Builder request = SdkHttpRequest.builder().uri(endpoint.resolve(path))
        .method(SdkHttpMethod.fromValue(method));
    headers.forEach(request::putHeader);
    if (body != null) {
      request.putHeader("Content-Length", Integer.toString(bytes.length));
    }
    ContentStreamProvider payload = body == null ? null : ContentStreamProvider.fromByteArray(bytes);
    SdkHttpRequest toSend = request.build();
    if (identity != null) {
      SignedRequest signed = signer.sign(r -> r.request(request.build()).payload(payload).identity(identity)
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3").putProperty(AwsV4HttpSigner.REGION_NAME,
              "us-east-1").putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
          .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false));
      toSend = signed.request();
    }
    return execute(toSend, payload, method + " " + path);
  }

  private Response execute(SdkHttpRequest toSend, ContentStreamProvider payload, String what) {
    try {
      HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(toSend)
          .contentStreamProvider(payload).build()).call();
      String text = "";
      if (response.responseBody().isPresent()) {
        try (InputStream in = response.responseBody().get()) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      }
      return new Response(response.httpResponse().statusCode(), lowerCase(response.httpResponse().headers()), text);
    } catch (IOException e) {
      throw new UncheckedIOException(what, e);
    }
  }

  /**
   * Sends {@code data} as the AWS SDK sends an upload body over HTTPS: aws-chunked, unsigned chunks
   * ({@code STREAMING-UNSIGNED-PAYLOAD-TRAILER}), the checksum {@code algorithm} of the data as a trailer
   * (x-amz-checksum-*), computed by the SDK's signer. The SDK signs chunks whenever the scheme is plain HTTP, so the
   * request is signed as for HTTPS (the scheme is not signed) and sent over HTTP. The encoded body passes through
   * {@code tamper} before it is sent, as a corrupting hop would change it.
   */
  Response sendWithTrailer(String method, String path, byte[] data, ChecksumAlgorithm algorithm,
      UnaryOperator<String> tamper) {
    SdkHttpRequest request = SdkHttpRequest.builder().uri(endpoint.resolve(path)).protocol("https")
        .method(SdkHttpMethod.fromValue(method)).putHeader("Content-Length", Integer.toString(data.length)).build();
    SignedRequest signed = signer.sign(r -> r.request(request).payload(ContentStreamProvider.fromByteArray(data))
        .identity(identity).putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1").putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
        .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false).putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true)
        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
        .putProperty(AwsV4HttpSigner.CHECKSUM_ALGORITHM, algorithm));
    byte[] encoded;
    try (InputStream in = signed.payload().orElseThrow().newStream()) {
      encoded = tamper.apply(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1))
          .getBytes(StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return execute(signed.request().toBuilder().protocol(endpoint.getScheme()).build(),
        ContentStreamProvider.fromByteArray(encoded), method + " " + path);
  }

  Response send(String method, String path) {
    return send(method, path, Map.of(), null);
  }

  private static Map<String, List<String>> lowerCase(Map<String, List<String>> headers) {
    Map<String, List<String>> out = new java.util.TreeMap<>();
    headers.forEach((name, values) -> out.put(name.toLowerCase(java.util.Locale.ROOT), values));
    return out;
  }

  @Override
  public void close() {
    http.close();
  }
}
