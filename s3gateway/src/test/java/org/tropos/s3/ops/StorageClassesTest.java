package org.tropos.s3.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

class StorageClassesTest {
  private static final EcReplication RS_6_3 = EcReplication.parse("rs-6-3-1024k");
  private static final StorageClasses CLASSES = StorageClasses.parse(List.of("STANDARD_IA=EC/rs-6-3-1024k",
      "REDUCED_REDUNDANCY=RATIS/ONE", "ONEZONE_IA=EC/rs-6-3-1024k"));

  @Test
  void aConfiguredClassSetsItsReplicationAndStandardLeavesTheBuckets() throws S3Error {
    OpenKeyRequest.Builder ia = OpenKeyRequest.newBuilder();
    CLASSES.apply("STANDARD_IA", ia);
    assertEquals(RS_6_3.toProto(), ia.getEc());
    InitiateMultipartUploadRequest.Builder rr = InitiateMultipartUploadRequest.newBuilder();
    CLASSES.apply(" REDUCED_REDUNDANCY ", rr);
    assertEquals(ReplicationFactor.ONE, rr.getFactor());
    assertFalse(rr.hasEc());
    for (String standard : new String[] {null, "STANDARD"}) {
      OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder();
      CLASSES.apply(standard, open);
      assertEquals(OpenKeyRequest.getDefaultInstance(), open.build());
    }
  }

  @Test
  void aKeyIsShownWithTheFirstClassOfItsReplication() {
    assertEquals("STANDARD_IA", CLASSES.of(KeyInfo.newBuilder().setEc(RS_6_3.toProto()).build()));
    assertEquals("REDUCED_REDUNDANCY", CLASSES.of(KeyInfo.newBuilder().setFactor(ReplicationFactor.ONE).build()));
    assertEquals("STANDARD", CLASSES.of(KeyInfo.newBuilder().setFactor(ReplicationFactor.THREE).build()));
    assertEquals("STANDARD", CLASSES.of(KeyInfo.newBuilder().setEc(EcReplication.parse("rs-3-2-1024k").toProto())
        .build()));
  }

  @Test
  void aCopyIsWrittenAnewOnlyWhenItsClassStoresOtherwise() throws S3Error {
    KeyInfo ec = KeyInfo.newBuilder().setEc(RS_6_3.toProto()).build();
    assertFalse(CLASSES.changes("ONEZONE_IA", ec));
    assertFalse(CLASSES.changes(null, ec));
    assertTrue(CLASSES.changes("REDUCED_REDUNDANCY", ec));
  }

  @Test
  void classesNotConfiguredAreNotImplementedAndOthersInvalid() {
    S3Error glacier = assertThrows(S3Error.class, () -> CLASSES.check("GLACIER"));
    assertEquals(S3ErrorCode.NOT_IMPLEMENTED, glacier.errorCode());
    assertTrue(glacier.getMessage().contains("STANDARD_IA"), glacier.getMessage());
    assertEquals(S3ErrorCode.NOT_IMPLEMENTED, assertThrows(S3Error.class, () -> StorageClasses.standardOnly()
        .apply("STANDARD_IA", OpenKeyRequest.newBuilder())).errorCode());
    assertEquals(S3ErrorCode.INVALID_STORAGE_CLASS, assertThrows(S3Error.class, () -> CLASSES.check("WARM"))
        .errorCode());
  }

  @Test
  void badEntriesFailNamingTheKey() {
    for (String bad : new String[] {"STANDARD_IA", "WARM=RATIS/ONE", "STANDARD=RATIS/ONE", "STANDARD_IA=EC/rs-9-0-1k",
        "GLACIER=RATIS/TWO"}) {
      ConfigException e = assertThrows(ConfigException.class, () -> StorageClasses.parse(List.of(bad)), bad);
      assertTrue(e.getMessage().startsWith("ozone.s3g.storage.classes: " + bad), e.getMessage());
    }
    assertThrows(ConfigException.class, () -> StorageClasses.parse(List.of("GLACIER=RATIS/ONE",
        "GLACIER=RATIS/THREE")));
  }
}
