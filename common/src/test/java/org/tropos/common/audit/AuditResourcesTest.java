package org.tropos.common.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.ChangeAclRequest;
import org.tropos.proto.om.CreateBucketRequest;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.PutS3PolicyRequest;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.SetS3SecretRequest;
import org.tropos.proto.scm.PipelineRequest;

class AuditResourcesTest {
  @Test
  void aRequestShowsWhatItNamesAndNeverItsSecrets() {
    assertEquals("{volume=v, bucket=b, key=k/x}", AuditResources.of(DeleteKeyRequest.newBuilder().setVolume("v")
        .setBucket("b").setKey("k/x").setRecursive(true).build()));
    assertEquals("{volume=s3v, name=photos}", AuditResources.of(CreateBucketRequest.newBuilder().setBucket(
        BucketInfo.newBuilder().setVolume("s3v").setName("photos").setOwner("alice")).build()));
    assertEquals("{type=OBJECT_KEY, volume=v, bucket=b, key=k}", AuditResources.of(ChangeAclRequest.newBuilder()
        .setObject(AclObject.newBuilder().setType(AclObjectType.OBJECT_KEY).setVolume("v").setBucket("b")
            .setKey("k")).build()));
    UUID pipeline = UUID.randomUUID();
    assertEquals("{pipeline=" + pipeline + "}", AuditResources.of(PipelineRequest.newBuilder().setId(
        PipelineId.newBuilder().setId(Uuids.toProto(pipeline))).build()));
    assertEquals("{access_id=alice}", AuditResources.of(SetS3SecretRequest.newBuilder().setAccessId("alice")
        .setSecret("not-to-be-logged").build()));
    assertEquals("{name=list-logs}", AuditResources.of(PutS3PolicyRequest.newBuilder().setPolicy(S3Policy
        .newBuilder().setName("list-logs").setDocument("{\"Statement\": []}")).build()), "not the document");
    assertEquals("{policies=[readonly, list-logs], group=staff}", AuditResources.of(AttachS3PoliciesRequest
        .newBuilder().addPolicies("readonly").addPolicies("list-logs").setGroup("staff").build()));
  }

  @Test
  void aValueStaysOnItsLineAndInItsField() {
    assertEquals("a/b c", AuditLog.clean("a|b\nc"));
  }
}
