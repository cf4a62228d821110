package org.tropos.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;
import org.tropos.tools.local.KeptPorts;

/**
 * An OM on a fresh database for one measurement, driven either in-process (the request path without gRPC, like
 * NNThroughputBenchmark drives the NameNode) or through its gRPC service. A file create is what a client does:
 * open the key, then commit it (empty, so no datanode is involved).
 */
final class OmTarget implements AutoCloseable {
  static final String VOLUME = "bench";
  static final String BUCKET = "namespace";

  private static final Duration ELECTION_WAIT = Duration.ofSeconds(30);
  private static final String SERVICE = "benchservice";

  /** The OMs (one, or an HA service's), null once stopped. */
  private final List<OmServer> oms = new ArrayList<>();
  /** The OM that serves: the only one, or the HA service's leader. */
  private OmServer om;
  private Namespace namespace;
  private final TroposClient client;

  private OmTarget(Path dir, boolean grpc, int count) throws IOException {
    // No block is allocated for empty files: SCM is never called.
    Configuration conf = Configuration.defaults().with(Map.of("ozone.om.address.bind.host", "127.0.0.1",
        "ozone.om.http-address", "127.0.0.1:0", "ozone.scm.block.client.address", "127.0.0.1:9"));
    Configuration clientConf = conf;
    try {
      if (count == 1) {
        oms.add(new OmServer(OmConfig.from(conf.with(Map.of("ozone.om.db.dirs", dir.toString(),
            "ozone.om.port", "0"))), SystemClock.INSTANCE));
      } else {
        List<OmService.Node> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          nodes.add(new OmService.Node("om" + i, new HostPort("127.0.0.1", freePort()),
              new HostPort("127.0.0.1", freePort())));
        }
        Map<String, String> service = new OmService(SERVICE, nodes).toKeys();
        clientConf = conf.with(service);
        for (int i = 0; i < count; i++) {
          oms.add(new OmServer(OmConfig.from(conf.with(service).with(Map.of("ozone.om.node.id", "om" + i,
              "ozone.om.db.dirs", dir.resolve("om" + i).toString()))), SystemClock.INSTANCE));
        }
      }
      for (OmServer server : oms) {
        server.start();
      }
      awaitServing();
    } catch (IOException | RuntimeException e) {
      oms.forEach(o -> o.close());
      throw e;
    }
    if (count == 1) {
      clientConf = conf.with(Map.of("ozone.om.address", new HostPort("127.0.0.1", om.port()).toString()));
    }
    if (grpc) {
      // Measured over the socket, as a client in another process calls: not through gRPC's in-process transport.
      System.setProperty(InProcessServers.PROPERTY, "false");
    }
    client = grpc ? TroposClient.create(clientConf) : null;
  }

  /**
   * A port free now, below the ephemeral range: one the kernel handed out for a probe was taken by an outgoing
   * connection before the OM bound it ("om-rpc cannot listen on 127.0.0.1:36663", a failed bench failover).
   */
  static int freePort() throws IOException {
    return KeptPorts.pick();
  }

  /** Waits until one of the running OMs serves (an HA service's leader has been elected and caught up). */
  void awaitServing() throws IOException {
    try {
      Threads.awaitCondition("an OM that serves", ELECTION_WAIT, Duration.ofMillis(20), () -> {
        for (OmServer server : oms) {
          if (server != null && server.serving()) {
            om = server;
            namespace = server.namespace();
            return true;
          }
        }
        return false;
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for an OM to serve", e);
    } catch (Exception e) {
      throw new IOException("no OM serves: " + e.getMessage(), e);
    }
  }

  /** Stops the OM that serves (an HA service's leader), as a crash would; the client fails over. */
  void stopServing() {
    oms.set(oms.indexOf(om), null);
    om.close();
  }

  /** An OM with volume {@value #VOLUME}, FSO bucket {@value #BUCKET} and the given directories. */
  static OmTarget start(Path dir, boolean grpc, List<String> directories) throws IOException, OmException {
    return start(dir, grpc, 1, directories);
  }

  /** The same with {@code count} OMs: one, or an HA service of that many, of which the leader serves. */
  static OmTarget start(Path dir, boolean grpc, int count, List<String> directories) throws IOException,
      OmException {
    OmTarget target = new OmTarget(dir, grpc, count);
    try {
      target.namespace.createVolume(VolumeInfo.newBuilder().setName(VOLUME).build());
      target.namespace.createBucket(BucketInfo.newBuilder().setVolume(VOLUME).setName(BUCKET).build());
      for (String d : directories) {
        target.namespace.createDirectory(VOLUME, BUCKET, d, "");
      }
      return target;
    } catch (OmException | RuntimeException e) {
      target.close();
      throw e;
    }
  }

  void create(String path) throws OmException {
    OpenKeyRequest open = OpenKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET).setKey(path).build();
    if (client == null) {
      OpenKeyRow row = namespace.openKey(open);
      namespace.commitKey(CommitKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET)
          .setOpenId(row.getOpenId()).setOpenKey(row.toByteString()).build());
    } else {
      createEmpty(open);
    }
  }

  /** Opens the key, then commits it empty on close: no block, so no datanode is involved. */
  private void createEmpty(OpenKeyRequest open) throws OmException {
    try {
      client.createKey(open).close();
    } catch (IOException e) {
      if (e.getCause() instanceof OmException failure) {
        throw failure;
      }
      throw new UncheckedIOException(e);
    }
  }

  void stat(String path) throws OmException {
    if (client == null) {
      namespace.getFileStatus(VOLUME, BUCKET, path);
    } else {
      client.getFileStatus(VOLUME, BUCKET, path);
    }
  }

  void mkdirs(String path) throws OmException {
    namespace.createDirectory(VOLUME, BUCKET, path, "");
  }

  void rename(String from, String to) throws OmException {
    if (client == null) {
      namespace.renameKey(VOLUME, BUCKET, from, to);
    } else {
      client.renameKey(VOLUME, BUCKET, from, to);
    }
  }

  /** Optimistic-concurrency conflicts so far. */
  long conflicts() {
    return om.metrics().conflicts();
  }

  /** Whether {@code path} exists, asked of the OM that serves now (through the client when there is one). */
  boolean exists(String path) throws OmException {
    try {
      stat(path);
      return true;
    } catch (OmException e) {
      if (e.result() == OmResult.KEY_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    for (OmServer server : oms) {
      if (server != null) {
        server.close();
      }
    }
  }
}
