package org.tropos.tools.local;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.net.ScmService;
import org.tropos.datanode.DatanodeServer;
import org.tropos.om.OmServer;
import org.tropos.s3.S3Gateway;
import org.tropos.scm.ScmServer;

/**
 * What runs where in a local cluster, for people: {@code tropos local} prints it once the cluster is up, so one
 * can point a browser, a client or {@code curl} at each daemon and find its data, without reading configuration.
 */
final class LocalClusterDescription {
  private static final String LOOPBACK = LocalAddresses.LOOPBACK;

  private LocalClusterDescription() {
  }

  /**
   * @param base the cluster's shared configuration (its HA services, the CA and user certificate files)
   * @param s3 the S3 gateway, null while there is none
   */
  static String of(LocalCluster cluster, LocalLayout layout, Configuration base, boolean ha, S3Gateway s3) {
    StringBuilder out = new StringBuilder();
    ScmServer serving = cluster.scm();
    out.append(String.format("Tropos local cluster %s, data in %s%n", serving.identity().clusterId(), layout.root()));
    console(out, serving, layout, base);
    if (!ha) {
      out.append(String.format("  SCM          client/admin %s:%d   blocks %s:%d   datanodes %s:%d   db %s%n",
          LOOPBACK, serving.clientPort(), LOOPBACK, serving.blockPort(), LOOPBACK, serving.datanodePort(),
          layout.scm()));
    }
    for (ScmService.Node node : ha ? ScmService.from(base).orElseThrow().nodes() : List.<ScmService.Node>of()) {
      out.append(String.format("  SCM %-8s client/admin %s   blocks %s   datanodes %s   Raft %s   db %s%n", node.id(),
          node.client(), node.block(), node.datanode(), node.ratis(), layout.node(node.id())));
    }
    List<OmServer> oms = cluster.oms();
    for (int i = 0; i < oms.size(); i++) {
      OmServer om = oms.get(i);
      String name = oms.size() == 1 ? "OM" : "OM " + LocalOmService.nodeId(i);
      Path db = oms.size() == 1 ? layout.om() : layout.node(LocalOmService.nodeId(i));
      out.append(String.format("  %-12s client %s:%d   status http://%s:%d/prom   db %s%n", name, LOOPBACK, om.port(),
          LOOPBACK, om.httpPort(), db));
    }
    if (s3 != null) {
      out.append(String.format("  S3 gateway   %s   status http://%s:%d/prom%n", cluster.s3Endpoint(), LOOPBACK,
          s3.statusPort()));
      cluster.s3HttpsEndpoint().ifPresent(https -> out.append(String.format("  S3 (HTTPS)   %s   CA certificate %s"
          + " (aws --ca-bundle)%n", https, cluster.scm().caFile())));
    }
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      DatanodeServer dn = cluster.datanode(i);
      String address = LocalAddresses.datanode(i);
      out.append(String.format("  datanode %-3d %-12s %-7s id %s   status %s   data %s%n", i, address,
          LocalAddresses.rack(i), dn == null ? "(stopped)" : dn.id().uuid(),
          dn == null ? "-" : "http://" + address + ":" + dn.httpPort() + "/prom", layout.datanode(i)));
    }
    return out.toString();
  }

  /** The web console, and in a secure cluster how to reach it with the user's certificate. */
  private static void console(StringBuilder out, ScmServer serving, LocalLayout layout, Configuration base) {
    Optional<Integer> consolePort = serving.httpsPort();
    if (consolePort.isPresent()) {
      // By name: SCM's certificate names localhost, which a browser or curl checks.
      out.append(String.format("  web console  https://localhost:%d/   to your certificate: import %s into the"
          + " browser (no password) and trust %s, or curl --cacert %s --cert %s%n  status       every daemon:"
          + " /prom, /health, /ready on its status port (SCM's http://%s:%d/)%n", consolePort.get(),
          layout.browserIdentity(), base.get(SecurityKeys.CA_FILE), base.get(SecurityKeys.CA_FILE),
          base.get(SecurityKeys.IDENTITY_FILE), LOOPBACK, serving.httpPort()));
    } else {
      out.append(String.format("  web console  http://%s:%d/   (every daemon: /prom, /health, /ready on its status"
          + " port)%n", LOOPBACK, serving.httpPort()));
    }
  }
}
