package org.tropos.s3.ops;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.acl.S3Actions;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * DeleteObjects: up to 1,000 keys (or versions of keys) in one request, each deleted on its own, exactly as named:
 * a key is a byte string, white space included. Quiet mode reports only failures.
 */
final class DeleteObjectsOp {
  private static final int MAX_KEYS = 1000;

  private final TroposClient om;
  private final BucketOps buckets;

  DeleteObjectsOp(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    // A bucket with a policy is asked of each key (the policy may speak of keys); one without is the same for all.
    BucketInfo bucket = buckets.find(request);
    if (bucket.getPolicy().isEmpty()) {
      Access.check(bucket, caller, Access.Permission.WRITE);
    }
    Element root = XmlInput.parse(request.body());
    List<Element> objects = XmlInput.children(root, "Object");
    if (!root.getTagName().equals("Delete") || objects.isEmpty() || objects.size() > MAX_KEYS) {
      throw S3ErrorCode.MALFORMED_XML.error("A DeleteObjects request names 1 to " + MAX_KEYS + " objects.");
    }
    for (Element object : objects) {
      String key = XmlInput.exactText(object, "Key");
      String versionId = XmlInput.text(object, "VersionId");
      if (key == null || key.isEmpty() || (versionId != null && versionId.isEmpty())) {
        throw S3ErrorCode.MALFORMED_XML.error("An Object has no Key, or an empty VersionId.");
      }
    }
    boolean quiet = "true".equalsIgnoreCase(XmlInput.text(root, "Quiet"));
    Xml xml = Xml.document("DeleteResult");
    for (Element object : childrenFirst(objects)) {
      String key = XmlInput.exactText(object, "Key");
      String versionId = XmlInput.text(object, "VersionId");
      try {
        Caller deleting = caller.asking(S3Actions.onVersion(S3Actions.DELETE_OBJECT, versionId),
            PolicyRequest.resource(bucket.getName(), key));
        Access.check(bucket, deleting, Access.Permission.WRITE);
        Access.checkVersionDelete(bucket, deleting, versionId == null ? "" : versionId);
        DeleteKeyResponse deleted = ObjectWrites.delete(om, buckets.volume(), request.bucket(), key,
            conditions(object).setVersionId(versionId == null ? "" : versionId), caller);
        if (!quiet) {
          deleted(xml, key, versionId, deleted);
        }
      } catch (S3Error error) {
        xml.open("Error").element("Key", key);
        if (versionId != null) {
          xml.element("VersionId", versionId);
        }
        xml.element("Code", error.code()).element("Message", error.getMessage()).close("Error");
      }
    }
    out.send(200, xml.close("DeleteResult").bytes(), "application/xml");
  }

  /**
   * The request's objects, every key after those it is a prefix of: in an FSO bucket a directory ("d/") is deleted
   * only when empty, so the files and directories under it named in the same request go first, as S3A's recursive
   * delete expects whatever order it lists them in. S3 promises no order in its answer.
   */
  private static List<Element> childrenFirst(List<Element> objects) {
    return objects.stream().sorted(Comparator.comparing((Element o) -> XmlInput.exactText(o, "Key")).reversed())
        .toList();
  }

  /** The conditions an Object of the request puts on its deletion: ETag, Size, LastModifiedTime. */
  private static DeleteKeyRequest.Builder conditions(Element object) throws S3Error {
    DeleteKeyRequest.Builder delete = DeleteKeyRequest.newBuilder();
    String etag = XmlInput.text(object, "ETag");
    String size = XmlInput.text(object, "Size");
    String modified = XmlInput.text(object, "LastModifiedTime");
    try {
      if (etag != null) {
        delete.setIfMatch(etag);
      }
      if (size != null) {
        delete.setIfMatchSize(Long.parseLong(size));
      }
      if (modified != null) {
        delete.setIfMatchModificationTimeMs(S3Time.parseXml(modified).toEpochMilli());
      }
    } catch (NumberFormatException | java.time.format.DateTimeParseException e) {
      throw S3ErrorCode.MALFORMED_XML.error("An Object's Size or LastModifiedTime cannot be read.");
    }
    return delete;
  }

  /** S3's report of one deletion: the version deleted, or the delete marker added. */
  private static void deleted(Xml xml, String key, String versionId, DeleteKeyResponse deleted) {
    xml.open("Deleted").element("Key", key);
    if (versionId != null) {
      xml.element("VersionId", versionId);
    }
    if (deleted.getDeleteMarker()) {
      xml.element("DeleteMarker", true);
      xml.element("DeleteMarkerVersionId", deleted.getVersionId());
    }
    xml.close("Deleted");
  }
}
