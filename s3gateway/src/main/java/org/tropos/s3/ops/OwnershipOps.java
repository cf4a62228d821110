package org.tropos.s3.ops;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.ObjectOwnership;
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
 * Object Ownership of a bucket: Put/Get/DeleteBucketOwnershipControls (its owner's business) and CreateBucket's
 * {@code x-amz-object-ownership}. The OM gives each new object the owner the setting says; the gateway refuses ACLs
 * where the setting disables them ({@link AclRequests#checkTaken}).
 */
final class OwnershipOps {
  private static final Map<String, ObjectOwnership> BY_NAME = Map.of("BucketOwnerEnforced",
      ObjectOwnership.BUCKET_OWNER_ENFORCED, "BucketOwnerPreferred", ObjectOwnership.BUCKET_OWNER_PREFERRED,
      "ObjectWriter", ObjectOwnership.OBJECT_WRITER);

  private final TroposClient om;
  private final BucketOps buckets;

  OwnershipOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  /** The setting S3 names {@code name} (null: none, OWNERSHIP_UNSET); InvalidArgument for another name. */
  static ObjectOwnership parse(String name) throws S3Error {
    if (name == null) {
      return ObjectOwnership.OWNERSHIP_UNSET;
    }
    ObjectOwnership ownership = BY_NAME.get(name.strip());
    if (ownership == null) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Object Ownership is one of " + BY_NAME.keySet() + ", not "
          + S3Error.quote(name));
    }
    return ownership;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    String name = BY_NAME.entrySet().stream().filter(e -> e.getValue() == bucket.getObjectOwnership())
        .map(Map.Entry::getKey).findFirst().orElseThrow(S3ErrorCode.NO_SUCH_OWNERSHIP_CONTROLS::error);
    out.send(200, Xml.document("OwnershipControls").open("Rule").element("ObjectOwnership", name).close("Rule")
        .close("OwnershipControls").bytes(), "application/xml");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    Element root = XmlInput.parse(request.body());
    List<Element> rules = XmlInput.children(root, "Rule");
    if (!root.getTagName().equals("OwnershipControls") || rules.size() != 1
        || XmlInput.text(rules.get(0), "ObjectOwnership") == null) {
      throw S3ErrorCode.MALFORMED_XML.error("OwnershipControls has one Rule naming its ObjectOwnership");
    }
    set(request, parse(XmlInput.text(rules.get(0), "ObjectOwnership")));
    out.send(200, new byte[0], null);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.OWNER);
    set(request, ObjectOwnership.OWNERSHIP_UNSET);
    out.send(204, new byte[0], null);
  }

  private void set(S3Request request, ObjectOwnership ownership) throws S3Error {
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume(buckets.volume()).setName(request.bucket()).setObjectOwnership(ownership).build()));
  }
}
