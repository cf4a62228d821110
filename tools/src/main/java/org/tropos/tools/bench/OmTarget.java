package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.tropos.common.rpc.Callers;
import org.tropos.client.internal.OmClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.SystemClock;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * An OM on a fresh database for one measurement, driven either in-process (the request path without gRPC, like
 * NNThroughputBenchmark drives the NameNode) or through its gRPC service. A file create is what a client does:
 * open the key, then commit it (empty, so no datanode is involved).
 */
final class OmTarget implements AutoCloseable {
  static final String VOLUME = "bench";
  static final String BUCKET = "namespace";

  private final OmServer om;
  private final Namespace namespace;
  private final OmClient client;

  private OmTarget(Path dir, boolean grpc) throws IOException {
    Configuration conf = Configuration.defaults().with(Map.of("ozone.om.db.dirs", dir.toString(),
        "ozone.om.port", "0", "ozone.om.address.bind.host", "127.0.0.1", "ozone.om.http-address", "127.0.0.1:0",
        // No block is allocated for empty files: SCM is never called.
        "ozone.scm.block.client.address", "127.0.0.1:9"));
    om = new OmServer(OmConfig.from(conf), SystemClock.INSTANCE);
    om.start();
    namespace = om.namespace();
    client = grpc ? new OmClient(new HostPort("127.0.0.1", om.port()), Callers.localUser()) : null;
  }

  /** An OM with volume {@value #VOLUME}, FSO bucket {@value #BUCKET} and the given directories. */
  static OmTarget start(Path dir, boolean grpc, List<String> directories) throws IOException, OmException {
    OmTarget target = new OmTarget(dir, grpc);
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
      OpenKeyResponse response = client.openKey(open);
      client.commitKey(VOLUME, BUCKET, response, 0, List.of(), Map.of(), false);
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

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    om.close();
  }
}
