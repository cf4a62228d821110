package org.tropos.s3.ops;

import java.io.IOException;
import java.util.Locale;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.PublicAccessBlock;
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
 * Block Public Access of a bucket: Put/Get/DeletePublicAccessBlock, its owner's business. What the settings do is
 * decided where access is (the OM and {@link Access}): a public ACL or policy refused when set, public grants ignored,
 * a public policy allowing the owner alone.
 */
final class PublicAccessBlockOps {
  private static final String DOCUMENT = "PublicAccessBlockConfiguration";

  private final TroposClient om;
  private final BucketOps buckets;

  PublicAccessBlockOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    if (!bucket.hasPublicAccessBlock()) {
      throw S3ErrorCode.NO_SUCH_PUBLIC_ACCESS_BLOCK.error();
    }
    PublicAccessBlock block = bucket.getPublicAccessBlock();
    out.send(200, Xml.document(DOCUMENT).element("BlockPublicAcls", Boolean.toString(block.getBlockPublicAcls()))
        .element("IgnorePublicAcls", Boolean.toString(block.getIgnorePublicAcls()))
        .element("BlockPublicPolicy", Boolean.toString(block.getBlockPublicPolicy()))
        .element("RestrictPublicBuckets", Boolean.toString(block.getRestrictPublicBuckets()))
        .close(DOCUMENT).bytes(), "application/xml");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    Element root = XmlInput.parse(request.body());
    if (!root.getTagName().equals(DOCUMENT)) {
      throw S3ErrorCode.MALFORMED_XML.error();
    }
    set(request, PublicAccessBlock.newBuilder().setBlockPublicAcls(flag(root, "BlockPublicAcls"))
        .setIgnorePublicAcls(flag(root, "IgnorePublicAcls")).setBlockPublicPolicy(flag(root, "BlockPublicPolicy"))
        .setRestrictPublicBuckets(flag(root, "RestrictPublicBuckets")).build());
    out.send(200, new byte[0], null);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.OWNER);
    set(request, null);
    out.send(204, new byte[0], null);
  }

  /** A setting's value: absent is false, as in S3. */
  private static boolean flag(Element root, String name) throws S3Error {
    String text = XmlInput.text(root, name);
    if (text == null) {
      return false;
    }
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw S3ErrorCode.MALFORMED_XML.error(name + " is true or false, not " + S3Error.quote(text));
    };
  }

  /** Replaces the bucket's settings with {@code block} (null: removes them). */
  private void set(S3Request request, PublicAccessBlock block) throws S3Error {
    SetBucketPropertiesRequest.Builder change = SetBucketPropertiesRequest.newBuilder().setVolume(buckets.volume())
        .setName(request.bucket()).setSetPublicAccessBlock(true);
    if (block != null) {
      change.setPublicAccessBlock(block);
    }
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(change.build()));
  }
}
