package org.tropos.scm.rpc;

import java.util.Map;
import java.util.Set;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.proto.scm.ScmAdminServiceGrpc;
import org.tropos.proto.scm.ScmBlockServiceGrpc;
import org.tropos.proto.scm.ScmDatanodeServiceGrpc;
import org.tropos.proto.scm.ScmPeerServiceGrpc;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;

/**
 * Who may call SCM's services when the cluster runs secure: only datanodes register and heartbeat; only OMs
 * allocate blocks and hand over deleted ones; any caller of the cluster (users too, until users authenticate) may
 * ask where containers are, report a bad replica, administer and ask for a certificate (a first one with a
 * bootstrap token, a renewal with the certificate it renews); only OMs and datanodes fetch the block-token keys,
 * only OMs the key they seal S3 secrets with.
 */
public final class ScmAdmissions {
  private ScmAdmissions() {
  }

  /**
   * The datanode port: datanodes alone, but for an SCM joining an HA service, which has no certificate yet (its
   * bootstrap token admits it).
   */
  public static PeerRoles.Admission datanodePort(String clusterId) {
    return new PeerRoles.Admission(Map.of(ScmDatanodeServiceGrpc.SERVICE_NAME, Set.of(ServiceRole.DATANODE)),
        Set.of(ScmPeerServiceGrpc.SERVICE_NAME), clusterId);
  }

  /** The block port: allocation and deletion from OMs alone, container lookups from any caller. */
  public static PeerRoles.Admission blockPort(String clusterId) {
    Set<ServiceRole> oms = Set.of(ServiceRole.OM);
    return new PeerRoles.Admission(Map.of(
        ScmBlockServiceGrpc.getAllocateBlockMethod().getFullMethodName(), oms,
        ScmBlockServiceGrpc.getAllocateBlocksMethod().getFullMethodName(), oms,
        ScmBlockServiceGrpc.getDeleteKeyBlocksMethod().getFullMethodName(), oms),
        Set.of(ScmBlockServiceGrpc.SERVICE_NAME), clusterId);
  }

  /**
   * The client port: administration and certificates; the block-token keys for OMs and datanodes alone, the
   * sealing key for OMs alone.
   */
  public static PeerRoles.Admission clientPort(String clusterId) {
    return new PeerRoles.Admission(Map.of(ScmSecurityServiceGrpc.getGetSecretKeysMethod().getFullMethodName(),
        Set.of(ServiceRole.OM, ServiceRole.DATANODE), ScmSecurityServiceGrpc.getGetSealingKeyMethod()
            .getFullMethodName(), Set.of(ServiceRole.OM)), Set.of(ScmAdminServiceGrpc.SERVICE_NAME,
        ScmSecurityServiceGrpc.SERVICE_NAME), clusterId);
  }
}
