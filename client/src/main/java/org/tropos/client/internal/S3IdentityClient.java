package org.tropos.client.internal;

import java.util.List;
import org.tropos.client.S3Identities;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.DeleteS3PolicyRequest;
import org.tropos.proto.om.ListS3GroupsRequest;
import org.tropos.proto.om.ListS3PoliciesRequest;
import org.tropos.proto.om.ListS3UsersRequest;
import org.tropos.proto.om.PutS3PolicyRequest;
import org.tropos.proto.om.RemoveS3UserRequest;
import org.tropos.proto.om.S3Group;
import org.tropos.proto.om.S3IdentityServiceGrpc;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.S3User;
import org.tropos.proto.om.SetS3UserEnabledRequest;

/** The OM's S3 identity service (policies, users, groups), over the same OMs and failover as {@link OmClient}. */
public final class S3IdentityClient implements S3Identities {
  private final OmFailover om;

  S3IdentityClient(OmFailover om) {
    this.om = om;
  }

  private S3IdentityServiceGrpc.S3IdentityServiceBlockingStub stub() {
    return om.stub(S3IdentityServiceGrpc::newBlockingStub);
  }

  @Override
  public void putPolicy(String name, String document) throws OmException {
    om.call(() -> stub().putS3Policy(PutS3PolicyRequest.newBuilder().setPolicy(S3Policy.newBuilder().setName(name)
        .setDocument(document)).build()));
  }

  @Override
  public void deletePolicy(String name) throws OmException {
    om.call(() -> stub().deleteS3Policy(DeleteS3PolicyRequest.newBuilder().setName(name).build()));
  }

  @Override
  public List<S3Policy> policies() throws OmException {
    return om.read(() -> stub().listS3Policies(ListS3PoliciesRequest.getDefaultInstance()).getPoliciesList());
  }

  @Override
  public void attach(AttachS3PoliciesRequest request) throws OmException {
    om.call(() -> stub().attachS3Policies(request));
  }

  @Override
  public S3Group changeGroup(ChangeS3GroupRequest request) throws OmException {
    return om.call(() -> stub().changeS3Group(request).getGroup());
  }

  @Override
  public List<S3Group> groups() throws OmException {
    return om.read(() -> stub().listS3Groups(ListS3GroupsRequest.getDefaultInstance()).getGroupsList());
  }

  @Override
  public void setEnabled(String user, boolean enabled) throws OmException {
    om.call(() -> stub().setS3UserEnabled(SetS3UserEnabledRequest.newBuilder().setName(user).setEnabled(enabled)
        .build()));
  }

  @Override
  public void remove(String user) throws OmException {
    om.call(() -> stub().removeS3User(RemoveS3UserRequest.newBuilder().setName(user).build()));
  }

  @Override
  public List<S3User> users(String only) throws OmException {
    return om.read(() -> stub().listS3Users(ListS3UsersRequest.newBuilder().setName(only).build()).getUsersList());
  }
}
