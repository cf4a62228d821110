package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.RpcErrors;
import org.tropos.common.util.HeapPressure;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.rpc.ErrorDetail;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.ScmBlockServiceGrpc;
import org.tropos.proto.scm.ScmResult;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A cluster whose heap is nearly full answers writes busy, with a hint to retry, and serves reads; once memory is
 * freed it takes writes again, and a client that was told to wait finishes its write. The heap is really filled:
 * this JVM, which runs the cluster, allocates arrays until its old generation is over the pressure mark.
 */
@Timeout(300)
class MemoryPressureIT {
  private static final int BALLAST_PIECE = 8 << 20;

  @TempDir
  Path dir;

  @Test
  void aFullHeapRefusesWritesAsBusyServesReadsAndTakesWritesOnceFreed() throws Exception {
    try (S3Cluster cluster = new S3Cluster(dir); S3Client s3 = cluster.client("alice")) {
      s3.createBucket(b -> b.bucket("bucket"));
      s3.putObject(b -> b.bucket("bucket").key("before"), RequestBody.fromString("written before"));
      TroposClient tropos = cluster.tropos();
      tropos.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
      tropos.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("bucket").build());
      HeapPressure pressure = HeapPressure.jvm();
      List<byte[]> ballast = fill(pressure);
      CompletableFuture<Void> waitingWriter;
      try {
        S3Exception refused = assertThrows(S3Exception.class, () -> s3.putObject(
            b -> b.bucket("bucket").key("during"), RequestBody.fromString("refused")));
        assertEquals(503, refused.statusCode());
        assertEquals("SlowDown", refused.awsErrorDetails().errorCode());
        assertEquals("1", refused.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("Retry-After").orElse(""));
        assertEquals("written before", s3.getObjectAsBytes(b -> b.bucket("bucket").key("before")).asUtf8String(),
            "reads are served");
        assertBusy(cluster.mini().omAddress().port(), OmResult.OM_BUSY.getNumber(), channel ->
            OmServiceGrpc.newBlockingStub(channel).openKey(OpenKeyRequest.getDefaultInstance()));
        assertBusy(cluster.mini().scmBlockAddress().port(), ScmResult.SCM_BUSY.getNumber(), channel ->
            ScmBlockServiceGrpc.newBlockingStub(channel).allocateBlock(AllocateBlockRequest.getDefaultInstance()));
        // The Java client told to wait waits, and writes once the OM takes writes again.
        int omHttpPort = cluster.mini().cluster().om().httpPort();
        double refusedBefore = busyRefusals(omHttpPort);
        waitingWriter = CompletableFuture.runAsync(() -> write(tropos, "vol", "bucket", "waited"));
        // Refused, the writer comes back after the Retry-After (1 s) and is refused again.
        Await.until("the OM to refuse the waiting writer twice", Duration.ofSeconds(30),
            () -> busyRefusals(omHttpPort), count -> count >= refusedBefore + 2);
        assertFalse(waitingWriter.isDone(), "the writer waits while the OM is busy");
      } finally {
        ballast.clear();
      }
      Await.until("the heap freed", Duration.ofSeconds(30), () -> {
        System.gc();
        return pressure.high();
      }, high -> !high);
      waitingWriter.get(60, TimeUnit.SECONDS);
      assertThrows(NoSuchKeyException.class, () -> s3.headObject(b -> b.bucket("bucket").key("during")),
          "the refused PUT stored nothing");
      s3.putObject(b -> b.bucket("bucket").key("after"), RequestBody.fromString("written after"));
      assertEquals("written after", s3.getObjectAsBytes(b -> b.bucket("bucket").key("after")).asUtf8String());
      try (InputStream in = tropos.readKey("vol", "bucket", "waited")) {
        assertArrayEquals("waited".getBytes(StandardCharsets.UTF_8), in.readAllBytes());
      }
    }
  }

  /** Allocates arrays until the heap is under pressure; they are the caller's to drop. */
  private static List<byte[]> fill(HeapPressure pressure) throws Exception {
    List<byte[]> ballast = new ArrayList<>();
    while (!pressure.high()) {
      ballast.add(new byte[BALLAST_PIECE]);
      if (ballast.size() % 8 == 0) {
        System.gc(); // the pressure is judged after each collection
        Thread.sleep(50); // the JVM's pressure listener runs after the collection, on its own thread
      }
    }
    return ballast;
  }

  private static void write(TroposClient client, String volume, String bucket, String key) {
    try (OutputStream out = client.createKey(volume, bucket, key, key.length())) {
      out.write(key.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException("writing " + key + " failed", e);
    }
  }

  /** A call over a raw channel, as any client's, that must be refused busy with a retry hint and nothing else. */
  private static void assertBusy(int port, int busyResult, java.util.function.Consumer<ManagedChannel> call)
      throws InterruptedException {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    try {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> call.accept(channel));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.toString());
      ErrorDetail detail = RpcErrors.detailOf(e).orElseThrow();
      assertEquals(busyResult, detail.getResult(), detail.toString());
      assertEquals(HeapPressure.RETRY_AFTER.toMillis(), detail.getRetryAfterMs(), detail.toString());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** The calls the OM refused as busy so far, from its metrics page. */
  private static double busyRefusals(int omHttpPort) throws Exception {
    HttpResponse<String> prom = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + omHttpPort + "/prom")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, prom.statusCode(), prom.body());
    return prom.body().lines().filter(l -> l.startsWith("rpc_busy_refusals_total{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }
}
