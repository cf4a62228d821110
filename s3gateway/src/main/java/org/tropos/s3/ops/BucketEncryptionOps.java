package org.tropos.s3.ops;

import java.io.IOException;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketEncryption;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * A bucket's default encryption: Put/Get/DeleteBucketEncryption (its owner's business). Objects written to the
 * bucket without asking for encryption are encrypted as it says ({@link ServerSideEncryption#withDefault}); those
 * written before keep how they were written, as in S3. A write that followed the former setting (a gateway that
 * read the bucket before the change) is refused when its key is committed (the OM checks the setting the writer
 * saw, {@link RecentBuckets#expectation}): an object is never left in the clear where the bucket says otherwise.
 */
final class BucketEncryptionOps {
  private static final String ROOT = "ServerSideEncryptionConfiguration";
  private static final String BY_DEFAULT = "ApplyServerSideEncryptionByDefault";

  private final TroposClient om;
  private final BucketOps buckets;

  BucketEncryptionOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    if (!bucket.hasEncryption()) {
      throw S3ErrorCode.NO_SUCH_ENCRYPTION_CONFIGURATION.error();
    }
    Xml rule = Xml.document(ROOT).open("Rule").open(BY_DEFAULT);
    if (bucket.getEncryption().getKind() == EncryptionKind.SSE_KMS) {
      rule.element("SSEAlgorithm", ServerSideEncryption.AWS_KMS).element("KMSMasterKeyID",
          bucket.getEncryption().getKmsKeyId());
    } else {
      rule.element("SSEAlgorithm", ServerSideEncryption.AES256);
    }
    out.send(200, rule.close(BY_DEFAULT).element("BucketKeyEnabled", "false").close("Rule").close(ROOT).bytes(),
        "application/xml");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    Element root = XmlInput.parse(request.body());
    List<Element> rules = XmlInput.children(root, "Rule");
    List<Element> byDefault = rules.size() == 1 ? XmlInput.children(rules.get(0), BY_DEFAULT) : List.of();
    String algorithm = byDefault.size() == 1 ? XmlInput.text(byDefault.get(0), "SSEAlgorithm") : null;
    if (!root.getTagName().equals(ROOT) || algorithm == null) {
      throw S3ErrorCode.MALFORMED_XML.error(ROOT + " has one Rule naming its " + BY_DEFAULT + "'s SSEAlgorithm");
    }
    String kmsKey = XmlInput.text(byDefault.get(0), "KMSMasterKeyID");
    EncryptionKind kind = ServerSideEncryption.kind(algorithm.strip());
    if (kmsKey != null && kind != EncryptionKind.SSE_KMS) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("a KMSMasterKeyID is for aws:kms, not AES256");
    }
    if (kind == EncryptionKind.SSE_KMS && (kmsKey == null || kmsKey.isBlank())) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("a default aws:kms encryption names its KMSMasterKeyID");
    }
    set(request, BucketEncryption.newBuilder().setKind(kind).setKmsKeyId(kmsKey == null ? "" : kmsKey.strip())
        .build());
    out.send(200, new byte[0], null);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.OWNER);
    set(request, null);
    out.send(204, new byte[0], null);
  }

  /** Sets the bucket's default encryption to {@code encryption} (null: none). */
  private void set(S3Request request, BucketEncryption encryption) throws S3Error {
    SetBucketPropertiesRequest.Builder set = SetBucketPropertiesRequest.newBuilder().setVolume(buckets.volume())
        .setName(request.bucket()).setSetEncryption(true);
    if (encryption != null) {
      set.setEncryption(encryption);
    }
    // Not left to the bucket this gateway remembers for writes: its next write follows the change.
    buckets.changed(OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(set.build())));
  }
}
