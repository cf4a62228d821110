package org.tropos.om.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.rpc.Callers;
import org.tropos.om.namespace.S3IdentityStore;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.AttachS3PoliciesResponse;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.ChangeS3GroupResponse;
import org.tropos.proto.om.DeleteS3PolicyRequest;
import org.tropos.proto.om.DeleteS3PolicyResponse;
import org.tropos.proto.om.ListS3GroupsRequest;
import org.tropos.proto.om.ListS3GroupsResponse;
import org.tropos.proto.om.ListS3PoliciesRequest;
import org.tropos.proto.om.ListS3PoliciesResponse;
import org.tropos.proto.om.ListS3UsersRequest;
import org.tropos.proto.om.ListS3UsersResponse;
import org.tropos.proto.om.PutS3PolicyRequest;
import org.tropos.proto.om.PutS3PolicyResponse;
import org.tropos.proto.om.RemoveS3UserRequest;
import org.tropos.proto.om.RemoveS3UserResponse;
import org.tropos.proto.om.S3IdentityServiceGrpc;
import org.tropos.proto.om.SetS3UserEnabledRequest;
import org.tropos.proto.om.SetS3UserEnabledResponse;

/**
 * The OM's S3 identity service: policies, users and groups ({@link S3IdentityStore}). Every change is the OM's
 * administrators' alone; reading them is theirs and the read-only administrators', and a user may read its own
 * entry (what applies to it). The S3 gateway's certificate proves nobody here.
 */
public final class S3IdentityRpc extends S3IdentityServiceGrpc.S3IdentityServiceImplBase {
  private final S3IdentityStore identities;
  private final Administrators administrators;
  private final OmCalls calls;

  S3IdentityRpc(S3IdentityStore identities, Administrators administrators, OmCalls calls) {
    this.identities = identities;
    this.administrators = administrators;
    this.calls = calls;
  }

  @Override
  public void putS3Policy(PutS3PolicyRequest r, StreamObserver<PutS3PolicyResponse> o) {
    calls.respond("PutS3Policy", o, () -> {
      administrators.checkAdministrator("create S3 policies");
      identities.putPolicy(r.getPolicy());
      return PutS3PolicyResponse.getDefaultInstance();
    });
  }

  @Override
  public void deleteS3Policy(DeleteS3PolicyRequest r, StreamObserver<DeleteS3PolicyResponse> o) {
    calls.respond("DeleteS3Policy", o, () -> {
      administrators.checkAdministrator("delete S3 policies");
      identities.deletePolicy(r.getName());
      return DeleteS3PolicyResponse.getDefaultInstance();
    });
  }

  @Override
  public void listS3Policies(ListS3PoliciesRequest r, StreamObserver<ListS3PoliciesResponse> o) {
    calls.respondRead("ListS3Policies", o, () -> {
      administrators.checkReader("list S3 policies");
      return ListS3PoliciesResponse.newBuilder().addAllPolicies(identities.policies()).build();
    });
  }

  @Override
  public void attachS3Policies(AttachS3PoliciesRequest r, StreamObserver<AttachS3PoliciesResponse> o) {
    calls.respond("AttachS3Policies", o, () -> {
      administrators.checkAdministrator((r.getDetach() ? "detach" : "attach") + " S3 policies");
      identities.attach(r);
      return AttachS3PoliciesResponse.getDefaultInstance();
    });
  }

  @Override
  public void changeS3Group(ChangeS3GroupRequest r, StreamObserver<ChangeS3GroupResponse> o) {
    calls.respond("ChangeS3Group", o, () -> {
      administrators.checkAdministrator("change S3 groups");
      return ChangeS3GroupResponse.newBuilder().setGroup(identities.changeGroup(r)).build();
    });
  }

  @Override
  public void listS3Groups(ListS3GroupsRequest r, StreamObserver<ListS3GroupsResponse> o) {
    calls.respondRead("ListS3Groups", o, () -> {
      administrators.checkReader("list S3 groups");
      return ListS3GroupsResponse.newBuilder().addAllGroups(identities.groups()).build();
    });
  }

  @Override
  public void setS3UserEnabled(SetS3UserEnabledRequest r, StreamObserver<SetS3UserEnabledResponse> o) {
    calls.respond("SetS3UserEnabled", o, () -> {
      administrators.checkAdministrator((r.getEnabled() ? "enable" : "disable") + " S3 users");
      identities.setEnabled(r.getName(), r.getEnabled());
      return SetS3UserEnabledResponse.getDefaultInstance();
    });
  }

  @Override
  public void removeS3User(RemoveS3UserRequest r, StreamObserver<RemoveS3UserResponse> o) {
    calls.respond("RemoveS3User", o, () -> {
      administrators.checkAdministrator("remove S3 users");
      identities.remove(r.getName());
      return RemoveS3UserResponse.getDefaultInstance();
    });
  }

  @Override
  public void listS3Users(ListS3UsersRequest r, StreamObserver<ListS3UsersResponse> o) {
    calls.respondRead("ListS3Users", o, () -> {
      if (r.getName().isEmpty() || !r.getName().equals(Callers.current())) {
        administrators.checkReader("list S3 users other than itself");
      }
      return ListS3UsersResponse.newBuilder().addAllUsers(identities.users(r.getName(), administrators::groupsOf))
          .build();
    });
  }
}
