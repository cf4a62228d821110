package org.tropos.om.kms;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.common.security.SpnegoInitiator;
import org.tropos.proto.om.KmsEncryptedKey;
import org.tropos.proto.om.OmResult;

/**
 * A client of Hadoop KMS's REST protocol (the KMS Ozone and HDFS encrypt with), for SSE-KMS: the KMS makes each
 * object's data key under one of its keys and hands it out encrypted (an "encrypted key version"), and decrypts it
 * again for whoever the KMS's ACLs let. The OM calls as its own user: by name ({@code user.name}) to a KMS of
 * simple authentication, and with its Kerberos principal (SPNEGO, {@link #authenticatingAs}) once a KMS answers that
 * it takes only Kerberos, from then on in each call's first request. Several hosts
 * ({@code kms://http@a;b:9600/kms}) are tried in turn when one cannot be reached.
 *
 * <p>Thread-safe.
 */
public final class HadoopKms {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  private final List<URI> bases;
  private final String user;
  private final Optional<SpnegoInitiator> kerberos;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  /** Whether the KMS asked for Kerberos: then every request carries a token, not only a retried one. */
  private volatile boolean negotiating;

  private HadoopKms(List<URI> bases, String user, Optional<SpnegoInitiator> kerberos) {
    this.bases = bases;
    this.user = user;
    this.kerberos = kerberos;
  }

  /** This KMS called with {@code login}'s Kerberos tickets whenever it asks for Kerberos. */
  public HadoopKms authenticatingAs(SpnegoInitiator login) {
    return new HadoopKms(bases, user, Optional.of(login));
  }

  /**
   * The KMS {@code providerPath} names, as Hadoop's {@code hadoop.security.key.provider.path}
   * ({@code kms://http@host:port/kms}, hosts separated by ';'), called as {@code user}; empty for "".
   *
   * @throws IllegalArgumentException when it names no Hadoop KMS
   */
  public static Optional<HadoopKms> of(String providerPath, String user) {
    if (providerPath.isBlank()) {
      return Optional.empty();
    }
    URI uri = URI.create(providerPath.strip());
    String at = uri.getRawAuthority();
    if (!"kms".equals(uri.getScheme()) || at == null || !at.contains("@")) {
      throw new IllegalArgumentException("hadoop.security.key.provider.path names a Hadoop KMS as"
          + " kms://http@host:port/kms (or https), not " + providerPath);
    }
    String scheme = at.substring(0, at.indexOf('@'));
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("a Hadoop KMS is reached over http or https, not " + scheme);
    }
    String hostsAndPort = at.substring(at.indexOf('@') + 1);
    int colon = hostsAndPort.lastIndexOf(':');
    String port = colon < 0 ? "" : hostsAndPort.substring(colon);
    List<URI> bases = new ArrayList<>();
    for (String host : (colon < 0 ? hostsAndPort : hostsAndPort.substring(0, colon)).split(";")) {
      bases.add(URI.create(scheme + "://" + host + port + uri.getRawPath()));
    }
    return Optional.of(new HadoopKms(List.copyOf(bases), user, Optional.empty()));
  }

  /** A new data key made by the KMS under its key {@code keyName}, as the KMS encrypted it. */
  public KmsEncryptedKey generate(String keyName) throws OmException {
    JsonElement answer = call("v1/key/" + encode(keyName) + "/_eek", "eek_op=generate&num_keys=1", null,
        keyName);
    try {
      JsonObject made = answer.getAsJsonArray().get(0).getAsJsonObject();
      KmsEncryptedKey key = KmsEncryptedKey.newBuilder().setKeyName(keyName)
          .setVersionName(made.get("versionName").getAsString()).setIv(bytes(made.get("iv")))
          .setMaterial(bytes(made.getAsJsonObject("encryptedKeyVersion").get("material"))).build();
      if (key.getMaterial().size() != SegmentedGcm.KEY_BYTES) {
        throw new OmException(OmResult.INVALID_REQUEST, "KMS key '" + keyName + "' makes "
            + key.getMaterial().size() * 8 + "-bit data keys; SSE-KMS encrypts with 256-bit ones");
      }
      return key;
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  /** Fails unless the KMS has key {@code keyName} (its metadata is not empty). */
  public void requireKey(String keyName) throws OmException {
    JsonElement metadata = call("v1/key/" + encode(keyName) + "/_metadata", "", null, keyName);
    if (!metadata.isJsonObject() || metadata.getAsJsonObject().size() == 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "KMS key '" + keyName + "' does not exist");
    }
  }

  /** The data key {@code key} holds, decrypted by the KMS. */
  public byte[] decrypt(KmsEncryptedKey key) throws OmException {
    JsonObject body = new JsonObject();
    body.addProperty("name", key.getKeyName());
    body.addProperty("iv", BASE64.encodeToString(key.getIv().toByteArray()));
    body.addProperty("material", BASE64.encodeToString(key.getMaterial().toByteArray()));
    JsonElement answer = call("v1/keyversion/" + encode(key.getVersionName()) + "/_eek", "eek_op=decrypt",
        body.toString(), key.getKeyName());
    try {
      return bytes(answer.getAsJsonObject().get("material")).toByteArray();
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  /** GETs (no {@code body}) or POSTs {@code path}; {@code query}: its parameters but the caller's name, or "". */
  private JsonElement call(String path, String query, String body, String keyName) throws OmException {
    IOException unreached = null;
    for (URI base : bases) {
      URI uri = URI.create(base + "/" + path + "?" + (query.isEmpty() ? "" : query + "&") + "user.name="
          + encode(user));
      try {
        HttpResponse<String> response = send(uri, body, negotiating ? ticket(uri) : null);
        if (response.statusCode() == 401 && !negotiating && kerberos.isPresent() && asksForKerberos(response)) {
          negotiating = true;
          response = send(uri, body, ticket(uri));
        }
        if (response.statusCode() == 401 && kerberos.isEmpty() && asksForKerberos(response)) {
          throw new OmException(OmResult.PERMISSION_DENIED, "the KMS takes only Kerberos: give the OM a"
              + " principal and keytab (ozone.om.kerberos.principal, ozone.om.kerberos.keytab.file)");
        }
        return answer(response, keyName);
      } catch (IOException e) {
        unreached = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new OmException(OmResult.KMS_UNAVAILABLE, "interrupted while calling the KMS");
      }
    }
    throw new OmException(OmResult.KMS_UNAVAILABLE, "the KMS at " + bases + " cannot be reached: "
        + unreached.getMessage());
  }

  /** Sends a request, with {@code authorization} unless null. */
  private HttpResponse<String> send(URI uri, String body, String authorization) throws IOException,
      InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(CALL_TIMEOUT)
        .header("Content-Type", "application/json");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** An {@code Authorization} header with the OM's Kerberos ticket for the KMS at {@code uri}. */
  private String ticket(URI uri) throws OmException {
    try {
      return kerberos.orElseThrow().authorization(uri.getHost());
    } catch (IOException e) {
      throw new OmException(OmResult.KMS_UNAVAILABLE, "the OM cannot call the KMS with Kerberos: " + e.getMessage());
    }
  }

  private static boolean asksForKerberos(HttpResponse<String> response) {
    return response.headers().allValues("WWW-Authenticate").stream().anyMatch(v -> v.startsWith("Negotiate"));
  }

  private static JsonElement answer(HttpResponse<String> response, String keyName) throws OmException {
    int status = response.statusCode();
    if (status / 100 == 2) {
      try {
        return JsonParser.parseString(response.body());
      } catch (JsonParseException e) {
        throw unreadable(e);
      }
    }
    String said = refusal(response.body());
    if (status == 401 || status == 403) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the KMS refuses the OM (" + status + "): " + said);
    }
    if (status == 404 || said.contains("not found") || said.contains("doesn't exist")
        || said.contains("No KeyVersion exists")) {
      throw new OmException(OmResult.INVALID_REQUEST, "KMS key '" + keyName + "' does not exist: " + said);
    }
    throw new OmException(status / 100 == 4 ? OmResult.INVALID_REQUEST : OmResult.KMS_UNAVAILABLE, "the KMS"
        + " answered " + status + ": " + said);
  }

  /** The message of a Hadoop KMS error answer ({@code {"RemoteException": {"message": ...}}}), else the body. */
  private static String refusal(String body) {
    try {
      JsonElement message = JsonParser.parseString(body).getAsJsonObject().getAsJsonObject("RemoteException")
          .get("message");
      return message == null || message.isJsonNull() ? body : message.getAsString();
    } catch (RuntimeException e) {
      return body;
    }
  }

  private static ByteString bytes(JsonElement base64) {
    return ByteString.copyFrom(Base64.getUrlDecoder().decode(base64.getAsString()));
  }

  private static OmException unreadable(RuntimeException e) {
    return new OmException(OmResult.KMS_UNAVAILABLE, "the KMS's answer is not Hadoop KMS's: " + e);
  }

  private static String encode(String part) {
    return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public String toString() {
    return "Hadoop KMS " + bases;
  }
}
