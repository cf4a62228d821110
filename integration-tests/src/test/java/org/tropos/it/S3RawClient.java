package org.tropos.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
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
      throw new UncheckedIOException(method + " " + path, e);
    }
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
