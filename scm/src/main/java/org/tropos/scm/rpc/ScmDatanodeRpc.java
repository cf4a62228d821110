package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.tropos.common.net.RackResolver;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.HeartbeatResponse;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ReregisterCommand;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmDatanodeServiceGrpc;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.block.BlockDeletingService;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.db.ScmIdentity;
import org.tropos.scm.node.HeardDatanodes;
import org.tropos.scm.node.NodeManager;

/**
 * SCM's datanode service, open on every SCM of an HA service: validates register and heartbeat requests; the
 * serving SCM hands them to its node manager (a heartbeat's acknowledged deletions to the block deleting service)
 * and answers with commands. A follower records them ({@link HeardDatanodes}, so that it knows the datanodes if it
 * takes over) and answers with the cluster's identity and no command, so commands come from the leader only.
 */
public final class ScmDatanodeRpc extends ScmDatanodeServiceGrpc.ScmDatanodeServiceImplBase {
  /** What the serving SCM answers from. */
  public record Serving(NodeManager nodes, ScmIdentity identity, BlockDeletingService deletions) {
  }

  private final Supplier<Serving> serving;
  /** Null for a single SCM, which always serves. */
  private final HeardDatanodes heard;
  private final ScmDb db;
  private final RackResolver racks;

  /**
   * @param serving what the SCM serves with now; null while it follows
   * @param heard where an SCM of an HA service records what it hears; null for a single SCM
   */
  public ScmDatanodeRpc(Supplier<Serving> serving, HeardDatanodes heard, ScmDb db, RackResolver racks) {
    this.serving = serving;
    this.heard = heard;
    this.db = db;
    this.racks = racks;
  }

  @Override
  public void register(RegisterRequest request, StreamObserver<RegisterResponse> observer) {
    ScmCalls.respond("Register", observer, () -> {
      DatanodeDetails offered = request.getDatanode();
      if (!offered.hasUuid() || offered.getHostName().isBlank()) {
        throw ScmCalls.invalid("Register needs the datanode's uuid and host name");
      }
      Serving now = servingOrFollowing();
      if (now == null) {
        return followerRegistration(request);
      }
      checkActsAsItself(now, Uuids.fromProto(offered.getUuid()), Optional.of(offered.getHostName()));
      DatanodeDetails registered = now.nodes().register(offered, request.getNodeReport(), request.getClusterId());
      if (heard != null) {
        heard.registered(request);
      }
      return RegisterResponse.newBuilder().setClusterId(now.identity().clusterId())
          .setScmId(now.identity().scmId()).setNetworkLocation(registered.getNetworkLocation()).build();
    });
  }

  /**
   * In a secure cluster, a datanode speaks only as the host its certificate names: it registers under that host
   * name ({@code claimedHost}), and for a node id known here only if the id was registered from that host. So a
   * datanode's certificate cannot move another node's id to another address, nor report for it.
   */
  private static void checkActsAsItself(Serving now, UUID id, Optional<String> claimedHost) throws ScmException {
    CertificateSubject peer = PeerRoles.PEER.get();
    if (peer == null) {
      return;
    }
    if (claimedHost.isPresent() && !claimedHost.get().equals(peer.name())) {
      throw new ScmException(ScmResult.PERMISSION_DENIED, "datanode " + peer.name() + " may not register as host "
          + claimedHost.get());
    }
    Optional<String> knownHost = now.nodes().node(id).map(n -> n.details().getHostName());
    if (knownHost.isPresent() && !knownHost.get().equals(peer.name())) {
      throw new ScmException(ScmResult.PERMISSION_DENIED, "datanode " + id + " is host " + knownHost.get()
          + ": datanode " + peer.name() + " may not speak for it");
    }
  }

  /** What this SCM serves with; null if it follows an HA service's leader; SCM_NOT_READY if a single SCM starts. */
  private Serving servingOrFollowing() throws ScmException {
    Serving now = serving.get();
    if (now == null && heard == null) {
      throw new ScmException(ScmResult.SCM_NOT_READY, "SCM is starting");
    }
    return now;
  }

  /** A follower accepts a datanode of its cluster (the identity its leader replicated) and records it. */
  private RegisterResponse followerRegistration(RegisterRequest request) throws ScmException {
    Optional<ScmIdentity> identity;
    try {
      identity = ScmIdentity.load(db);
    } catch (IOException e) {
      throw new ScmException(ScmResult.INTERNAL_ERROR, "cannot read the cluster id: " + e.getMessage());
    }
    if (identity.isEmpty()) {
      throw new ScmException(ScmResult.SCM_NOT_READY, "this SCM follows and has no cluster id from its leader yet");
    }
    String clusterId = identity.get().clusterId();
    if (!request.getClusterId().isEmpty() && !request.getClusterId().equals(clusterId)) {
      throw new ScmException(ScmResult.CLUSTER_ID_MISMATCH, "datanode " + Uuids.fromProto(
          request.getDatanode().getUuid()) + " belongs to cluster " + request.getClusterId() + ", this SCM to "
          + clusterId);
    }
    heard.registered(request);
    DatanodeDetails offered = request.getDatanode();
    return RegisterResponse.newBuilder().setClusterId(clusterId).setScmId(identity.get().scmId())
        .setNetworkLocation(racks.resolve(offered.getHostName(), offered.getIpAddress())).build();
  }

  @Override
  public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
    ScmCalls.respond("Heartbeat", observer, () -> {
      if (!request.hasDatanodeUuid()) {
        throw ScmCalls.invalid("Heartbeat needs the datanode's uuid");
      }
      Serving now = servingOrFollowing();
      boolean known = heard == null || heard.heartbeat(request);
      if (now == null) {
        // A follower that has not heard the node register (it started later) asks it to, to know it on takeover.
        return known ? HeartbeatResponse.getDefaultInstance() : HeartbeatResponse.newBuilder()
            .addCommands(ScmCommand.newBuilder().setReregister(ReregisterCommand.getDefaultInstance())).build();
      }
      checkActsAsItself(now, Uuids.fromProto(request.getDatanodeUuid()), Optional.empty());
      // Acknowledged deletions are facts even from a node that must register again: record them first.
      now.deletions().acknowledged(Uuids.fromProto(request.getDatanodeUuid()), request.getDeleteBlocksAcksList());
      return HeartbeatResponse.newBuilder()
          .addAllCommands(now.nodes().heartbeat(Uuids.fromProto(request.getDatanodeUuid()), request.getNodeReport(),
              request.getPipelineReportsList(), request.getContainerReportsList()))
          .build();
    });
  }
}
