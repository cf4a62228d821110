package org.tropos.scm;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmService;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.scm.JoinServiceRequest;
import org.tropos.proto.scm.JoinServiceResponse;
import org.tropos.proto.scm.ScmPeerServiceGrpc;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.db.ScmIdentity;
import org.tropos.scm.security.ScmCertificateAuthority;

/**
 * How an SCM of a secure HA service comes to hold the cluster's identity and CA before its Raft group runs: the
 * SCMs speak mutual TLS to one another, so each needs its certificate before the group can elect a leader. The
 * primordial SCM ({@code ozone.scm.primordial.node.id}) makes them at its first start; every other SCM fetches
 * them once from an SCM that holds them ({@link org.tropos.scm.rpc.ScmPeerRpc}), admitted by a bootstrap token
 * for an SCM (so does a primordial SCM that lost its directory, given a token). Either way the rows are written to
 * this SCM's database directly, identical on every SCM.
 */
final class ScmServiceJoin {
  private static final Logger LOG = LoggerFactory.getLogger(ScmServiceJoin.class);

  private ScmServiceJoin() {
  }

  /** Makes sure {@code db} holds the cluster's identity and CA; with a token, fetched from the service's SCMs. */
  static void prepare(ScmDb db, ScmConfig.Ha ha, String bootstrapToken) throws IOException {
    if (ScmIdentity.load(db).isPresent() && ScmCertificateAuthority.exists(db)) {
      return;
    }
    String self = ha.self().id();
    boolean token = bootstrapToken != null && !bootstrapToken.isBlank();
    // A token wins: a primordial SCM whose directory was lost joins the service it made rather than make another.
    if (!token && ha.primordial() && !Files.exists(ha.ratisDir())) {
      ScmIdentity created = ScmIdentity.loadOrCreate(db);
      LOG.info("SCM {} is the primordial SCM of service {}: it made cluster {}", self, ha.service().id(),
          created.clusterId());
      return;
    }
    if (!token) {
      throw new IOException("SCM " + self + " does not hold the cluster's CA yet: start it once with"
          + " --bootstrap-token (or TROPOS_BOOTSTRAP_TOKEN), from `tropos admin cert token --role scm` run beside"
          + " an SCM of service " + ha.service().id() + " that holds it (the primordial SCM, "
          + ha.primordialNode() + ", makes it)");
    }
    JoinServiceResponse joined = fetch(ha, bootstrapToken.strip());
    ScmIdentity.adopt(db, new ScmIdentity(joined.getClusterId(), joined.getScmId()));
    ScmCertificateAuthority.adopt(db, new ScmCertificateAuthority.Rows(joined.getCaCertificatePem(),
        joined.getCaKeyPem(), joined.getBootstrapSecret().toByteArray()));
    LOG.info("SCM {} joined service {} of cluster {}", self, ha.service().id(), joined.getClusterId());
  }

  /** The identity and CA from the first other SCM that holds them, over TLS to the CA the token pins. */
  private static JoinServiceResponse fetch(ScmConfig.Ha ha, String token) throws IOException {
    String pin = BootstrapTokens.pinnedCa(token).orElseThrow(() -> new IOException("the bootstrap token is"
        + " malformed: mint one with `tropos admin cert token --role scm`"));
    List<HostPort> others = ha.service().nodes().stream().filter(n -> !n.id().equals(ha.self().id()))
        .map(ScmService.Node::datanode).toList();
    try (ScmChannel peers = new ScmChannel(others, TransportSecurity.pinning(pin))) {
      return peers.call(() -> peers.stub(ScmPeerServiceGrpc::newBlockingStub).joinService(
          JoinServiceRequest.newBuilder().setBootstrapToken(token).build()));
    } catch (ScmException e) {
      throw new IOException("SCM " + ha.self().id() + " could not join service " + ha.service().id() + ": "
          + e.getMessage(), e);
    }
  }
}
