package org.tropos.s3.ops;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.common.util.Clock;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.auth.PostPolicy;
import org.tropos.s3.auth.RequestAuthenticator;
import org.tropos.s3.checksum.DeclaredChecksum;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.error.S3IOException;
import org.tropos.s3.http.FormDataReader;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.io.BulkInputStream;

/**
 * POST object: an upload from a browser form ({@code multipart/form-data} sent to the bucket). The fields before
 * the {@code file} part say the key ({@code ${filename}} stands for the file's name), its ACL, metadata and tags;
 * a policy signed with the uploader's key (Signature V4 or V2) says what the form may hold, else the upload is
 * anonymous and needs a bucket open to anonymous writes. The file streams into the key like a PUT's body and is
 * committed only once its size is within the policy's {@code content-length-range} and its checksum (when sent)
 * matches; fields after the file are ignored, as S3 does.
 */
final class PostObjectOp {
  /** The most bytes all fields before the file may hold: they are kept in memory. */
  static final int MAX_FIELD_BYTES = 1 << 20;

  private final BucketOps buckets;
  private final ObjectWrites writes;
  private final RequestAuthenticator authenticator;
  private final Clock clock;

  PostObjectOp(BucketOps buckets, ObjectWrites writes, RequestAuthenticator authenticator, Clock clock) {
    this.buckets = buckets;
    this.writes = writes;
    this.authenticator = authenticator;
    this.clock = clock;
  }

  void post(S3Request request, Caller signed, S3Response out) throws S3Error, IOException {
    String boundary = FormDataReader.boundary(request.header("content-type"));
    if (boundary == null) {
      throw S3ErrorCode.PRECONDITION_FAILED.error("Bucket POST must be of the enclosure-type multipart/form-data");
    }
    request.acceptBody();
    FormDataReader form = new FormDataReader(request.body(), boundary);
    Map<String, String> fields = new LinkedHashMap<>();
    FormDataReader.Part file = readFields(form, fields);
    String key = fields.get("key");
    if (key == null) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Bucket POST must contain a field named 'key'.  If it is specified,"
          + " please check the order of the fields.");
    }
    key = key.replace("${filename}", file.fileName() == null ? "" : file.fileName());
    if (key.isEmpty()) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("User key must have a length greater than 0.");
    }
    fields.put("key", key);
    // The bucket is the one posted to, whatever a field says: the policy must allow that one.
    fields.put("bucket", request.bucket());
    Caller uploader = signed.anonymous() ? authenticator.authenticateForm(fields) : signed;
    Caller caller = uploader.asking(new PolicyRequest(uploader.accessId(), S3Actions.PUT_OBJECT,
        PolicyRequest.resource(request.bucket(), key), signed.asks().conditions()));
    try (S3RequestProofs.Acting acting = caller.acting()) {
      upload(request, caller, form, fields, out);
    }
  }

  /** Stores the form's file as the key its fields name, once the caller and its policy allow it. */
  private void upload(S3Request request, Caller caller, FormDataReader form, Map<String, String> fields,
      S3Response out) throws S3Error, IOException {
    String key = fields.get("key");
    PostPolicy policy = fields.containsKey("policy") ? PostPolicy.parse(fields.get("policy")) : null;
    if (policy != null) {
      policy.check(fields, clock.wallTime());
    }
    WriteRequestChecks.checkKey(key);
    checkAsked(fields);
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.WRITE);
    String tagging = fields.get("tagging");
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder()
        .putAllMetadata(ObjectMetadata.of(name -> fields.get(name.toLowerCase(Locale.ROOT)), fields.keySet()))
        .putAllMetadata(TaggingOps.asMetadata(tagging == null ? Map.of() : TaggingOps.fromDocument(
            new ByteArrayInputStream(tagging.getBytes(StandardCharsets.UTF_8)))))
        .setAcl(AclRequests.canned(fields.get("acl")));
    open.setEncryption(ServerSideEncryption.asked(fields.keySet(), fields::get, request.secure()).request());
    buckets.storageClasses().apply(fields.get(StorageClasses.HEADER), open);
    long min = policy == null ? 0 : policy.minLength();
    long max = Math.min(ObjectWrites.MAX_PUT_BYTES, policy == null ? Long.MAX_VALUE : policy.maxLength());
    CountingInputStream content = new CountingInputStream(form.content(), max);
    DeclaredChecksum declared = DeclaredChecksum.of(name -> fields.get(name.toLowerCase(Locale.ROOT)),
        fields.keySet());
    ObjectWrites.TargetBucket target = buckets.writeTarget(request, caller, bucket);
    KeyInfo stored = writes.store(request.bucket(), key, caller, target, open, content, -1, false, declared,
        digests -> {
          if (content.count() < min) {
            throw S3ErrorCode.ENTITY_TOO_SMALL.error("Your proposed upload is smaller than the minimum allowed size: "
                + content.count() + " bytes of at least " + min);
          }
        }).key();
    while (form.next() != null) {
      // Fields after the file are ignored, as S3 ignores them; reading them keeps the connection usable.
    }
    respond(request, fields, key, stored, out);
  }

  /**
   * Reads the fields up to the file into {@code fields} (lower-case names: S3 matches field names in any case)
   * and returns the file's part.
   */
  private static FormDataReader.Part readFields(FormDataReader form, Map<String, String> fields)
      throws S3Error, IOException {
    int total = 0;
    for (FormDataReader.Part part = form.next(); part != null; part = form.next()) {
      String name = part.name().toLowerCase(Locale.ROOT);
      if (name.equals("file")) {
        return part;
      }
      byte[] value = form.content().readNBytes(MAX_FIELD_BYTES - total + 1);
      total += value.length;
      if (total > MAX_FIELD_BYTES) {
        throw S3ErrorCode.MALFORMED_POST_REQUEST.error("The fields before the file exceed " + MAX_FIELD_BYTES
            + " bytes");
      }
      if (fields.put(name, new String(value, StandardCharsets.UTF_8)) != null) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("The form names the field " + S3Error.quote(name) + " twice");
      }
    }
    throw S3ErrorCode.INVALID_ARGUMENT.error("POST requires exactly one file upload per request.");
  }

  /** Refuses, before anything is stored, a form asking for what we would not do. */
  private static void checkAsked(Map<String, String> fields) throws S3Error {
    WriteRequestChecks.checkAsked(fields.keySet());
    for (String name : fields.keySet()) {
      if (name.startsWith("x-amz-grant-")) {
        throw S3ErrorCode.NOT_IMPLEMENTED.error(name + " is not implemented: set a canned ACL with the acl field");
      }
    }
  }

  /**
   * S3's answer to an upload: a redirect to {@code success_action_redirect} with the bucket, key and ETag, or
   * {@code success_action_status} (200, 201 with a PostResponse document, otherwise 204).
   */
  private static void respond(S3Request request, Map<String, String> fields, String key, KeyInfo stored,
      S3Response out) {
    String etag = ObjectMetadata.etag(stored);
    out.headers().set("ETag", etag);
    ServerSideEncryption.describe(stored, out, fields::get);
    Versions.written(stored, out);
    String location = "http://" + request.header("host") + "/" + encode(request.bucket()) + "/" + encode(key);
    out.headers().set("Location", location);
    String redirect = fields.getOrDefault("success_action_redirect", fields.get("redirect"));
    if (redirect != null && isAbsoluteUrl(redirect)) {
      out.headers().set("Location", redirect + (redirect.contains("?") ? "&" : "?") + "bucket="
          + encode(request.bucket()) + "&key=" + encode(key) + "&etag=" + encode(etag));
      out.send(303, new byte[0], null);
      return;
    }
    String status = fields.getOrDefault("success_action_status", "").strip();
    if (status.equals("201")) {
      out.send(201, Xml.plainDocument("PostResponse").element("Location", location)
          .element("Bucket", request.bucket()).element("Key", key).element("ETag", etag).close("PostResponse")
          .bytes(), "application/xml");
    } else {
      out.send(status.equals("200") ? 200 : 204, new byte[0], null);
    }
  }

  private static boolean isAbsoluteUrl(String url) {
    try {
      URI uri = new URI(url);
      return uri.getScheme() != null && (uri.getScheme().equals("http") || uri.getScheme().equals("https"));
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The file's bytes, counted, failing with EntityTooLarge past the policy's (or S3's) limit. */
  private static final class CountingInputStream extends BulkInputStream {
    private final InputStream in;
    private final long max;
    private long count;

    CountingInputStream(InputStream in, long max) {
      this.in = in;
      this.max = max;
    }

    long count() {
      return count;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      int n = in.read(into, offset, length);
      if (n > 0) {
        count += n;
        if (count > max) {
          throw new S3IOException(S3ErrorCode.ENTITY_TOO_LARGE.error("Your proposed upload exceeds the maximum"
              + " allowed size of " + max + " bytes"));
        }
      }
      return n;
    }
  }
}
