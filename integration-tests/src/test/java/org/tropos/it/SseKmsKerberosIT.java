package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.KerberosService;
import org.tropos.common.security.SpnegoInitiator;
import org.tropos.om.kms.HadoopKms;
import org.tropos.proto.om.KmsEncryptedKey;
import org.tropos.proto.om.OmResult;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * SSE-KMS against a Hadoop KMS that takes only Kerberos, as a production KMS does: the OM proves itself with its
 * own principal (SPNEGO) and the KMS lets only it and an administrator use its keys. A request with the OM's name
 * but no ticket, a forged ticket, or another user's real ticket gets no data key out of the KMS; an OM without a
 * Kerberos login is told what to set.
 */
class SseKmsKerberosIT {
  private static final String KEY = "warehouse-key";

  @TempDir
  static Path dir;
  private static MitKdc kdc;
  private static TestKms kms;
  private static MiniCluster mini;
  private static TroposClient admin;
  private static S3Client s3;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    kdc = MitKdc.start(dir.resolve("kdc"));
    kms = TestKms.startKerberos(dir.resolve("kms"), kdc);
    kms.createKey(KEY);
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true",
        "ozone.om.kerberos.principal", MitKdc.qualified("om/localhost"), "ozone.om.kerberos.keytab.file",
        kdc.keytab("om/localhost").toString(), "hadoop.security.key.provider.path", kms.providerPath()));
    mini.awaitOpenPipelines(1);
    admin = TroposClient.create(mini.clientConfig());
    String secret = admin.getS3Secret("erin", true).getSecret();
    s3 = S3Cluster.clientOf(URI.create(mini.cluster().s3Endpoint()), "erin", secret);
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {s3, admin, mini, kms, kdc}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        // Closing the rest matters more.
      }
    }
  }

  @Test
  void theOmUsesTheKerberosOnlyKmsWithItsOwnTicket() throws Exception {
    s3.createBucket(b -> b.bucket("kerberized"));
    byte[] data = DiskScan.uniqueText("kerberized", 300_000);
    for (String name : new String[] {"first", "second"}) {
      s3.putObject(p -> p.bucket("kerberized").key(name).serverSideEncryption(ServerSideEncryption.AWS_KMS)
          .ssekmsKeyId(KEY), RequestBody.fromBytes(data));
      assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("kerberized").key(name)).asByteArray(), name);
    }
    assertEquals(KEY, admin.getKey("s3v", "kerberized", "first").getEncryption().getKms().getKeyName());
    assertFalse(DiskScan.anyFileHolds(dir.resolve("cluster"), Arrays.copyOfRange(data, 1000, 1064)),
        "the plaintext is nowhere in the cluster's files");
  }

  @Test
  void noTicketAForgedOneOrAnotherUsersGetNoDataKeyFromTheKms() throws Exception {
    s3.createBucket(b -> b.bucket("guarded"));
    s3.putObject(p -> p.bucket("guarded").key("k").serverSideEncryption(ServerSideEncryption.AWS_KMS)
        .ssekmsKeyId(KEY), RequestBody.fromString("secret rows"));
    KmsEncryptedKey stored = admin.getKey("s3v", "guarded", "k").getEncryption().getKms();

    HttpResponse<String> byName = decrypt(stored, "?user.name=om", null);
    assertEquals(401, byName.statusCode(), "the OM's name without its ticket: " + byName.body());
    assertFalse(byName.body().contains("material"));
    HttpResponse<String> generateByName = generate("?user.name=om", null);
    assertEquals(401, generateByName.statusCode());
    assertFalse(generateByName.body().contains("material"));

    String forged = "Negotiate " + Base64.getEncoder().encodeToString("not a ticket".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> byForgery = decrypt(stored, "", forged);
    assertTrue(byForgery.statusCode() == 401 || byForgery.statusCode() == 403, "a forged ticket: "
        + byForgery.statusCode());
    assertFalse(byForgery.body().contains("material"));

    String alice = login("alice").authorization("localhost");
    HttpResponse<String> byAlice = decrypt(stored, "", alice);
    assertEquals(403, byAlice.statusCode(), "a real ticket of a user the KMS's ACLs do not name");
    assertFalse(byAlice.body().contains("material"));

    HttpResponse<String> byAdmin = decrypt(stored, "", login("admin").authorization("localhost"));
    assertEquals(200, byAdmin.statusCode(), "the same request with a ticket the KMS lets: " + byAdmin.body());
    assertTrue(byAdmin.body().contains("material"));
  }

  @Test
  void anOmWithoutAKerberosLoginIsToldWhatToSet() {
    HadoopKms byNameOnly = HadoopKms.of(kms.providerPath(), "om").orElseThrow();
    OmException refused = assertThrows(OmException.class, () -> byNameOnly.generate(KEY));
    assertEquals(OmResult.PERMISSION_DENIED, refused.result());
    assertTrue(refused.getMessage().contains("ozone.om.kerberos.principal"), refused.getMessage());
  }

  private static SpnegoInitiator login(String user) throws Exception {
    return SpnegoInitiator.of(new KerberosService(MitKdc.qualified(user), kdc.keytab(user)), "localhost");
  }

  private static HttpResponse<String> decrypt(KmsEncryptedKey key, String query, String authorization)
      throws Exception {
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    String body = "{\"name\":\"" + key.getKeyName() + "\",\"iv\":\"" + base64.encodeToString(key.getIv()
        .toByteArray()) + "\",\"material\":\"" + base64.encodeToString(key.getMaterial().toByteArray()) + "\"}";
    String version = URLEncoder.encode(key.getVersionName(), StandardCharsets.UTF_8);
    return call("v1/keyversion/" + version + "/_eek?eek_op=decrypt" + query.replace('?', '&'), body,
        authorization);
  }

  private static HttpResponse<String> generate(String query, String authorization) throws Exception {
    return call("v1/key/" + KEY + "/_eek?eek_op=generate&num_keys=1" + query.replace('?', '&'), null,
        authorization);
  }

  private static HttpResponse<String> call(String path, String body, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(kms.url() + path))
        .header("Content-Type", "application/json");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
