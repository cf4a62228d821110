package org.tropos.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.scm.ScmServer;
import org.tropos.tools.local.LocalCluster;

/**
 * The SCM side of {@code bench failover}: a local cluster in this process with an SCM HA service of three SCMs, an
 * OM HA service of three OMs and three datanodes; each write is a small key through the Java client (a block
 * allocated by the SCM leader, written to a pipeline, committed), and the SCM leader is the one stopped.
 */
final class ScmFailoverTarget implements FailoverBenchmark.Target {
  private static final String VOLUME = "bench";
  private static final String BUCKET = "failover";
  private static final int KEY_BYTES = 4096;

  private final LocalCluster cluster;
  private final TroposClient client;

  private ScmFailoverTarget(LocalCluster cluster, TroposClient client) {
    this.cluster = cluster;
    this.client = client;
  }

  static ScmFailoverTarget start(Path dir) throws Exception {
    Configuration base = BenchClusters.config();
    LocalCluster cluster = new LocalCluster(dir, 3, 1, 1, true, base);
    TroposClient client = null;
    try {
      cluster.start();
      Configuration clients = base.with(cluster.serviceKeys());
      cluster.awaitWritable(ReplicationFactor.THREE, Duration.ofSeconds(60));
      client = TroposClient.create(clients);
      client.createVolume(VolumeInfo.newBuilder().setName(VOLUME).setOwner("bench").build());
      client.createBucket(BucketInfo.newBuilder().setVolume(VOLUME).setName(BUCKET).build());
      return new ScmFailoverTarget(cluster, client);
    } catch (Exception e) {
      if (client != null) {
        client.close();
      }
      cluster.close();
      throw e;
    }
  }

  @Override
  public void write(String name) throws IOException, OmException {
    byte[] data = content(name);
    try (OutputStream out = client.createKey(VOLUME, BUCKET, name, data.length)) {
      out.write(data);
    }
  }

  @Override
  public void stopLeader() {
    ScmServer leader = cluster.scm();
    cluster.stopScm(cluster.scms().indexOf(leader));
  }

  @Override
  public void awaitServing() {
    cluster.scm();
  }

  @Override
  public boolean holds(String name) throws IOException, OmException {
    try (InputStream in = client.readKey(VOLUME, BUCKET, name)) {
      return Arrays.equals(content(name), in.readAllBytes());
    } catch (OmException e) {
      if (e.result() == OmResult.KEY_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  /** The key's bytes: its name repeated, so that a read of another key's data does not pass. */
  private static byte[] content(String name) {
    byte[] unit = (name + '\n').getBytes(StandardCharsets.UTF_8);
    byte[] data = new byte[KEY_BYTES];
    for (int i = 0; i < data.length; i++) {
      data[i] = unit[i % unit.length];
    }
    return data;
  }

  @Override
  public void close() {
    client.close();
    cluster.close();
  }
}
