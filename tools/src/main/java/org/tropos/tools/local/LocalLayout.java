package org.tropos.tools.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a local cluster keeps each daemon's data under its one directory. Fixed names, because starting again on the
 * same directory must find the same cluster, node ids and certificates, and because {@code tropos local} prints them.
 */
final class LocalLayout {
  private final Path root;
  private final int volumesPerNode;
  private final int raftDirsPerNode;

  /**
   * @param volumesPerNode data volumes per datanode ({@code dn<i>/data1..V}), standing in for disks
   * @param raftDirsPerNode RaftLog directories per datanode ({@code dn<i>/ratis1..R})
   */
  LocalLayout(Path dataDir, int volumesPerNode, int raftDirsPerNode) {
    this.root = dataDir.toAbsolutePath().normalize();
    this.volumesPerNode = volumesPerNode;
    this.raftDirsPerNode = raftDirsPerNode;
  }

  Path root() {
    return root;
  }

  /** The datanode address to rack table SCM's topology mapping reads. */
  Path topologyTable() {
    return root.resolve("topology.table");
  }

  /** The single SCM's directory. */
  Path scm() {
    return root.resolve("scm");
  }

  /** The single OM's directory. */
  Path om() {
    return root.resolve("om");
  }

  /** The directory of node {@code id} of an HA service ({@code scm1}, {@code om2}, ...). */
  Path node(String id) {
    return root.resolve(id);
  }

  Path s3Gateway() {
    return root.resolve("s3g");
  }

  /** Datanode {@code i}'s (1-based) home. */
  Path datanode(int i) {
    return root.resolve("dn" + i);
  }

  /** Datanode {@code i}'s data volumes, comma-separated as its configuration lists them. */
  String datanodeVolumes(int i) {
    return numbered(datanode(i), "data", volumesPerNode);
  }

  /** Datanode {@code i}'s RaftLog directories, comma-separated. */
  String datanodeRaftDirs(int i) {
    return numbered(datanode(i), "ratis", raftDirsPerNode);
  }

  private static String numbered(Path home, String prefix, int count) {
    List<String> dirs = new ArrayList<>();
    for (int k = 1; k <= count; k++) {
      dirs.add(home.resolve(prefix + k).toString());
    }
    return String.join(",", dirs);
  }

  /** Holds the certificate the user who started a secure cluster acts with ({@code identity.pem}). */
  Path user() {
    return root.resolve("user");
  }

  /** Where the user's certificate is kept for a browser (the web console): PKCS#12, no password. */
  Path browserIdentity() {
    return user().resolve("identity.p12");
  }
}
