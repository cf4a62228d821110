package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;

/** Erasure-coded and replicated buckets and keys through the namespace over a real database. */
class KeyReplicationTest {
  private static final EcReplicationConfig RS_6_3 = EcReplication.parse("rs-6-3-1024k").toProto();
  private static final EcReplicationConfig RS_3_2 = EcReplication.parse("rs-3-2-1024k").toProto();

  @TempDir
  Path dir;
  private OmTestStore om;

  @BeforeEach
  void open() throws Exception {
    om = new OmTestStore(dir);
    om.namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").setOwner("alice").build());
  }

  @AfterEach
  void close() throws Exception {
    om.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  @Test
  void anEcBucketsKeysAreErasureCodedUnlessOpenedWithAReplicationOfTheirOwn() throws Exception {
    Namespace ns = om.namespace;
    BucketInfo bucket = ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("cold").setEc(RS_6_3)
        .build());
    assertEquals(RS_6_3, bucket.getEc());
    assertEquals(ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED, bucket.getFactor());
    assertEquals(RS_6_3, ns.getBucket("vol1", "cold").getEc());

    KeyInfo coded = put(ns, "cold", "coded", OpenKeyRequest.newBuilder());
    assertEquals(RS_6_3, coded.getEc());
    assertEquals(RS_6_3, ns.lookupKey("vol1", "cold", "coded").getEc());
    KeyInfo replicated = put(ns, "cold", "replicated", OpenKeyRequest.newBuilder().setFactor(ReplicationFactor.ONE));
    assertFalse(replicated.hasEc());
    assertEquals(ReplicationFactor.ONE, replicated.getFactor());

    ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("hot").build());
    KeyInfo ownConfig = put(ns, "hot", "coded", OpenKeyRequest.newBuilder().setEc(RS_3_2));
    assertEquals(RS_3_2, ownConfig.getEc());
    assertFalse(put(ns, "hot", "plain", OpenKeyRequest.newBuilder()).hasEc());
  }

  @Test
  void aConfigTroposDoesNotWriteIsRefusedAndChangesNothing() throws Exception {
    Namespace ns = om.namespace;
    for (EcReplicationConfig bad : new EcReplicationConfig[] {
        EcReplicationConfig.newBuilder().setCodec("xor").setData(3).setParity(2).setCellSize(1 << 20).build(),
        EcReplicationConfig.newBuilder().setCodec("rs").setData(0).setParity(3).setCellSize(1 << 20).build(),
        EcReplicationConfig.newBuilder().setCodec("lrc").setData(6).setParity(3).setCellSize(1 << 20).build(),
        EcReplicationConfig.newBuilder().setCodec("rs").setData(6).setParity(3).setCellSize(1000).build()}) {
      OmException e = assertThrows(OmException.class, () -> ns.createBucket(BucketInfo.newBuilder()
          .setVolume("vol1").setName("bad").setEc(bad).build()));
      assertEquals(OmResult.INVALID_REQUEST, e.result(), bad.toString());
      assertEquals(OmResult.BUCKET_NOT_FOUND, assertThrows(OmException.class,
          () -> ns.getBucket("vol1", "bad")).result());
    }
    ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("plain").build());
    assertEquals(OmResult.INVALID_REQUEST, assertThrows(OmException.class, () -> ns.openKey(OpenKeyRequest
        .newBuilder().setVolume("vol1").setBucket("plain").setKey("k").setEc(RS_3_2.toBuilder().setParity(0)).build()))
        .result());
  }

  @Test
  void anOmWhoseDefaultIsErasureCodingGivesItToBucketsAndLinksCreatedWithoutOne() throws Exception {
    Namespace ns = new Namespace(om.runner, new BucketDefaults(BucketLayout.OBJECT_STORE,
        ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED, Optional.of(RS_3_2)), S3SecretSealing.plaintext(),
        DataKeys.none());
    assertEquals(RS_3_2, ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("coded").build()).getEc());
    BucketInfo three = ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("replicated")
        .setFactor(ReplicationFactor.THREE).build());
    assertFalse(three.hasEc());
    assertEquals(ReplicationFactor.THREE, three.getFactor());
    BucketInfo link = ns.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("link").setSourceVolume("vol1")
        .setSourceBucket("coded").build());
    assertEquals(RS_3_2, link.getEc(), "a link shows its source's replication");
  }

  private static KeyInfo put(Namespace ns, String bucket, String key, OpenKeyRequest.Builder request)
      throws OmException {
    OpenKeyRow open = ns.openKey(request.setVolume("vol1").setBucket(bucket).setKey(key).build());
    return ns.commitKey(CommitKeyRequest.newBuilder().setVolume("vol1").setBucket(bucket).setOpenId(open.getOpenId())
        .setOpenKey(open.toByteString()).setSize(10).addBlocks(KeyBlock.newBuilder().setBlockId(BlockId.newBuilder()
            .setContainerId(1).setLocalId(open.getOpenId())).setLength(10)).build());
  }
}
