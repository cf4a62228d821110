package org.tropos.client;

import java.util.List;
import java.util.function.Function;
import org.tropos.client.internal.OmClient;
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

/**
 * The OM's S3 identity service (policies, users, groups), over the same OMs and failover as the {@link OmClient}
 * it is made with. Here rather than in {@code internal}: it is what {@link TroposClient#s3Identities} hands out,
 * and the OM's calls below know nothing of the public API.
 */
final class S3IdentityClient implements S3Identities {
  private final OmClient om;

  S3IdentityClient(OmClient om) {
    this.om = om;
  }

  private <T> T call(Function<S3IdentityServiceGrpc.S3IdentityServiceBlockingStub, T> rpc) throws OmException {
    return om.call(S3IdentityServiceGrpc::newBlockingStub, rpc);
  }

  private <T> T read(Function<S3IdentityServiceGrpc.S3IdentityServiceBlockingStub, T> rpc) throws OmException {
    return om.read(S3IdentityServiceGrpc::newBlockingStub, rpc);
  }

  @Override
  public void putPolicy(String name, String document) throws OmException {
    call(s -> s.putS3Policy(PutS3PolicyRequest.newBuilder().setPolicy(S3Policy.newBuilder().setName(name)
        .setDocument(document)).build()));
  }

  @Override
  public void deletePolicy(String name) throws OmException {
    call(s -> s.deleteS3Policy(DeleteS3PolicyRequest.newBuilder().setName(name).build()));
  }

  @Override
  public List<S3Policy> policies() throws OmException {
    return read(s -> s.listS3Policies(ListS3PoliciesRequest.getDefaultInstance()).getPoliciesList());
  }

  @Override
  public void attach(AttachS3PoliciesRequest request) throws OmException {
    call(s -> s.attachS3Policies(request));
  }

  @Override
  public S3Group changeGroup(ChangeS3GroupRequest request) throws OmException {
    return call(s -> s.changeS3Group(request).getGroup());
  }

  @Override
  public List<S3Group> groups() throws OmException {
    return read(s -> s.listS3Groups(ListS3GroupsRequest.getDefaultInstance()).getGroupsList());
  }

  @Override
  public void setEnabled(String user, boolean enabled) throws OmException {
    call(s -> s.setS3UserEnabled(SetS3UserEnabledRequest.newBuilder().setName(user).setEnabled(enabled)
        .build()));
  }

  @Override
  public void remove(String user) throws OmException {
    call(s -> s.removeS3User(RemoveS3UserRequest.newBuilder().setName(user).build()));
  }

  @Override
  public List<S3User> users(String only) throws OmException {
    return read(s -> s.listS3Users(ListS3UsersRequest.newBuilder().setName(only).build()).getUsersList());
  }
}
