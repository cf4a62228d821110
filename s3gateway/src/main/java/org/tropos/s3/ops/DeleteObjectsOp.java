package org.tropos.s3.ops;

import java.io.IOException;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OmResult;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/** DeleteObjects: up to 1,000 keys in one request, each deleted on its own; quiet mode reports only failures. */
final class DeleteObjectsOp {
  private static final int MAX_KEYS = 1000;

  private final TroposClient om;
  private final BucketOps buckets;

  DeleteObjectsOp(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request.bucket(), caller);
    Element root = XmlInput.parse(request.body());
    List<Element> objects = XmlInput.children(root, "Object");
    if (objects.isEmpty() || objects.size() > MAX_KEYS) {
      throw S3ErrorCode.MALFORMED_XML.error("A DeleteObjects request names 1 to " + MAX_KEYS + " objects.");
    }
    boolean quiet = "true".equalsIgnoreCase(XmlInput.text(root, "Quiet"));
    Xml xml = Xml.document("DeleteResult");
    for (Element object : objects) {
      String key = XmlInput.exactText(object, "Key");
      if (key == null || key.isEmpty()) {
        throw S3ErrorCode.MALFORMED_XML.error("An Object has no Key.");
      }
      try {
        om.deleteKey(buckets.volume(), request.bucket(), key, false);
        deleted(xml, key, quiet);
      } catch (OmException e) {
        if (e.result() == OmResult.KEY_NOT_FOUND || e.result() == OmResult.DIRECTORY_NOT_FOUND) {
          deleted(xml, key, quiet);
        } else {
          S3Error error = OmCalls.translate(e, request.bucket(), key);
          xml.open("Error").element("Key", key).element("Code", error.code()).element("Message", error.getMessage())
              .close("Error");
        }
      }
    }
    out.send(200, xml.close("DeleteResult").bytes(), "application/xml");
  }

  private static void deleted(Xml xml, String key, boolean quiet) {
    if (!quiet) {
      xml.open("Deleted").element("Key", key).close("Deleted");
    }
  }
}
