package org.tropos.om.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.S3Signatures;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.OmResult;

/** The OM's check of forwarded S3 signatures, on AWS's published examples. */
class S3SignatureCheckTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  /** AWS's Signature V4 example "GET Object" (examplebucket/test.txt, bytes=0-9). */
  private static final String V4_SIGNED = "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
      + "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972";
  private static final String V4_SIGNATURE = "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
  /** AWS's Signature V2 example (johnsmith's puppy.jpg). */
  private static final String V2_SIGNED = "GET\n\n\nTue, 27 Mar 2007 19:36:42 +0000\n/johnsmith/photos/puppy.jpg";
  private static final String V2_SIGNATURE = "bWq2s1WEIj+Ydj0vQ697zp+IXMU=";

  @Test
  void aMatchingV4SignatureGetsItsScopesKey() throws Exception {
    CheckS3SignatureRequest request = v4(V4_SIGNATURE);
    assertArrayEquals(S3Signatures.v4SigningKey(SECRET, "20130524", "us-east-1", "s3"),
        S3SignatureCheck.check(request, SECRET).getSigningKey().toByteArray());
  }

  @Test
  void aV2SignatureMatchesAnyOfItsForms() throws Exception {
    CheckS3SignatureRequest request = CheckS3SignatureRequest.newBuilder().setAccessId("AKIAIOSFODNN7EXAMPLE")
        .addStringToSign(V2_SIGNED + "/").addStringToSign(V2_SIGNED).setSignature(V2_SIGNATURE).build();
    assertTrue(S3SignatureCheck.check(request, SECRET).getSigningKey().isEmpty(), "V2 has no derived key");
  }

  @Test
  void anotherSecretOrAnotherSignatureDoesNotMatch() {
    for (OmException e : new OmException[] {
        assertThrows(OmException.class, () -> S3SignatureCheck.check(v4(V4_SIGNATURE), "another secret")),
        assertThrows(OmException.class, () -> S3SignatureCheck.check(v4(V4_SIGNATURE.replace('f', '0')), SECRET)),
        assertThrows(OmException.class, () -> S3SignatureCheck.check(v4(V4_SIGNATURE).toBuilder().setRegion(
            "eu-west-1").build(), SECRET))}) {
      assertEquals(OmResult.S3_SIGNATURE_MISMATCH, e.result());
    }
    assertEquals(OmResult.INVALID_REQUEST, assertThrows(OmException.class, () -> S3SignatureCheck.check(
        CheckS3SignatureRequest.newBuilder().setAccessId("a").setSignature(V2_SIGNATURE).build(), SECRET)).result());
  }

  private static CheckS3SignatureRequest v4(String signature) {
    return CheckS3SignatureRequest.newBuilder().setAccessId("AKIAIOSFODNN7EXAMPLE").setDate("20130524")
        .setRegion("us-east-1").setService("s3").addStringToSign(V4_SIGNED).setSignature(signature).build();
  }
}
