package org.tropos.tools.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.tools.local.LocalCluster;

/** The keys {@code tropos bench ec} writes, and what it asks of the cluster about them. */
final class EcKeys {
  private EcKeys() {
  }

  /** One key as written: its replication, size, PUT rate and the digest of its bytes. */
  record Key(String replication, String name, long bytes, double putMBps, byte[] sha256) {
  }

  /**
   * Writes a key's {@code bytes} bytes to {@code out} in 4 MB pieces, each of the benchmark's keys (and the peer's
   * files) the same bytes for the same size, into {@code digest} as well.
   */
  static void writeContent(OutputStream out, long bytes, MessageDigest digest) throws IOException {
    byte[] piece = new byte[4 << 20];
    new Random(bytes).nextBytes(piece);
    for (long left = bytes; left > 0; left -= piece.length) {
      int n = (int) Math.min(left, piece.length);
      piece[0]++;
      digest.update(piece, 0, n);
      out.write(piece, 0, n);
    }
  }

  /** The bucket of a replication's keys: ratis-three, rs-3-2-1024k... */
  static String bucketOf(String replication) {
    return replication.toLowerCase(Locale.ROOT).replace('/', '-');
  }

  /** Bytes of the key's blocks on every running datanode, each replica and index counted. */
  static long storedBytes(LocalCluster cluster, TroposClient client, Key key) throws Exception {
    LookupKeyResponse lookup = client.lookupKey("bench", bucketOf(key.replication()), key.name());
    long total = 0;
    for (KeyBlock block : lookup.getKey().getBlocksList()) {
      for (int i = 1; i <= cluster.datanodeCount(); i++) {
        DatanodeServer datanode = cluster.datanode(i);
        if (datanode != null && datanode.store() != null
            && datanode.store().descriptor(block.getBlockId().getContainerId()).isPresent()) {
          try {
            total += datanode.store().getBlock(block.getBlockId()).getLength();
          } catch (DatanodeException e) {
            // This replica does not hold the block (a member that was not written to).
          }
        }
      }
    }
    return total;
  }

  /**
   * Stops the datanodes holding data indexes 1 to {@code gone} of the key's first block group; their numbers (to
   * start them again). A datanode holds at most one index of a container, so no group of the key loses more.
   */
  static List<Integer> stopDataIndexHolders(LocalCluster cluster, TroposClient client, Key key, int gone)
      throws Exception {
    LookupKeyResponse lookup = client.lookupKey("bench", bucketOf(key.replication()), key.name());
    long container = lookup.getKey().getBlocks(0).getBlockId().getContainerId();
    ContainerInfo info = lookup.getContainersList().stream().filter(c -> c.getContainerId() == container)
        .findFirst().orElseThrow();
    List<Integer> stopped = new ArrayList<>();
    for (int r = 0; r < info.getReplicasCount(); r++) {
      if (info.getReplicaIndexes(r) <= gone) {
        int node = datanodeNumber(cluster, Uuids.fromProto(info.getReplicas(r).getUuid()));
        cluster.stopDatanode(node);
        stopped.add(node);
      }
    }
    return stopped;
  }

  static int datanodeNumber(LocalCluster cluster, UUID id) {
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      DatanodeServer datanode = cluster.datanode(i);
      if (datanode != null && datanode.id().uuid().equals(id)) {
        return i;
      }
    }
    throw new IllegalStateException("no running datanode " + id);
  }
}
