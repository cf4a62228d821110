package org.tropos.s3.ops;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.ObjectOwnership;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/** ListBuckets, CreateBucket, HeadBucket, DeleteBucket, GetBucketLocation. S3 buckets live in one volume. */
final class BucketOps {
  private static final String REGION = "us-east-1";
  private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

  private final TroposClient om;
  private final String volume;
  /** S3's largest page of ListBuckets. */
  private static final int MAX_BUCKETS = 10000;
  private final BucketLayout layout;
  private final StorageClasses storageClasses;
  private final RecentBuckets recentBuckets;
  private final AclRequests acls;

  BucketOps(TroposClient om, String volume, BucketLayout layout, StorageClasses storageClasses, Clock clock,
      AclRequests acls) {
    this.om = om;
    this.acls = acls;
    this.volume = volume;
    this.layout = layout;
    this.storageClasses = storageClasses;
    this.recentBuckets = new RecentBuckets(clock);
  }

  String volume() {
    return volume;
  }

  /** The storage classes the buckets' writes may ask for. */
  StorageClasses storageClasses() {
    return storageClasses;
  }

  /**
   * The request's bucket, whoever asks (NoSuchBucket if there is none): for requests whose access depends on an
   * object. AccessDenied if it is not owned by the {@code x-amz-expected-bucket-owner} the request names.
   */
  BucketInfo find(S3Request request) throws S3Error {
    return find(request.bucket(), request.header("x-amz-expected-bucket-owner"));
  }

  /** A bucket, checked to belong to {@code expectedOwner} when that is not null. */
  BucketInfo find(String bucket, String expectedOwner) throws S3Error {
    BucketInfo info = OmCalls.call(bucket, "", () -> om.getBucket(volume, bucket));
    checkOwner(info, expectedOwner);
    return info;
  }

  /**
   * The request's bucket if {@code caller} may write objects there: as read moments ago when that allows it (the
   * OM checks at OpenKey that it has not changed since, see {@link RecentBuckets}), else, or when {@code fresh},
   * as read now. A refusal is always decided on the bucket as it is now.
   */
  BucketInfo requireWrite(S3Request request, Caller caller, boolean fresh) throws S3Error {
    BucketInfo recent = fresh ? null : recentBuckets.get(request.bucket());
    if (recent != null && Access.allows(recent, caller, Access.Permission.WRITE)
        && ownedBy(recent, request.header("x-amz-expected-bucket-owner"))) {
      return recent;
    }
    BucketInfo info = find(request);
    recentBuckets.remember(info);
    Access.check(info, caller, Access.Permission.WRITE);
    return info;
  }

  /** Writes from now on follow {@code bucket}, as this gateway has just changed it. */
  void changed(BucketInfo bucket) {
    recentBuckets.remember(bucket);
  }

  /** A write's bucket: {@code checked} (for a write), or read and checked again when OpenKey finds it changed. */
  ObjectWrites.TargetBucket writeTarget(S3Request request, Caller caller, BucketInfo checked) {
    return fresh -> fresh ? requireWrite(request, caller, true) : checked;
  }

  /** AccessDenied unless the bucket belongs to {@code expectedOwner} (null: anyone). */
  static void checkOwner(BucketInfo bucket, String expectedOwner) throws S3Error {
    if (!ownedBy(bucket, expectedOwner)) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied: bucket " + S3Error.quote(bucket.getName())
          + " is not owned by the expected owner");
    }
  }

  private static boolean ownedBy(BucketInfo bucket, String expectedOwner) {
    return expectedOwner == null || expectedOwner.strip().equals(bucket.getOwner());
  }

  /** The request's bucket, if {@code caller} may do what {@code permission} covers there. */
  BucketInfo require(S3Request request, Caller caller, Access.Permission permission) throws S3Error {
    BucketInfo info = find(request);
    Access.check(info, caller, permission);
    return info;
  }

  /**
   * ListBuckets: the caller's buckets (every bucket for an administrator) by name, under {@code prefix}, a page of
   * {@code max-buckets} at a time after {@code continuation-token} (the last name of the page before, opaque).
   */
  void list(S3Request request, Caller caller, S3Response out) throws S3Error {
    if (caller.anonymous()) {
      throw S3ErrorCode.ACCESS_DENIED.error("Anonymous callers may not list buckets");
    }
    String prefix = request.param("prefix") == null ? "" : request.param("prefix");
    int max = maxBuckets(request.param("max-buckets"));
    String after = afterToken(request.param("continuation-token"));
    List<BucketInfo> page = new ArrayList<>();
    boolean more = false;
    try {
      for (BucketInfo b : om.listBuckets(volume, prefix)) {
        if ((b.getOwner().equals(caller.accessId()) || caller.administrator()) && b.getName().compareTo(after) > 0) {
          if (page.size() == max) {
            more = true;
            break;
          }
          page.add(b);
        }
      }
    } catch (OmException e) {
      if (e.result() != OmResult.VOLUME_NOT_FOUND) {
        throw OmCalls.translate(e, "", "");
      }
    }
    Xml xml = Xml.document("ListAllMyBucketsResult").open("Owner").element("ID", caller.accessId())
        .element("DisplayName", caller.accessId()).close("Owner").open("Buckets");
    for (BucketInfo b : page) {
      xml.open("Bucket").element("Name", b.getName()).element("CreationDate", S3Time.iso(b.getCreationTimeMs()))
          .close("Bucket");
    }
    xml.close("Buckets");
    if (more) {
      xml.element("ContinuationToken", Base64.getUrlEncoder().encodeToString(page.get(page.size() - 1).getName()
          .getBytes(StandardCharsets.UTF_8)));
    }
    if (!prefix.isEmpty()) {
      xml.element("Prefix", prefix);
    }
    out.send(200, xml.close("ListAllMyBucketsResult").bytes(), "application/xml");
  }

  private static int maxBuckets(String value) throws S3Error {
    if (value == null) {
      return MAX_BUCKETS;
    }
    try {
      int max = Integer.parseInt(value.strip());
      if (max >= 1 && max <= MAX_BUCKETS) {
        return max;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw S3ErrorCode.INVALID_ARGUMENT.error("max-buckets must be an integer between 1 and " + MAX_BUCKETS);
  }

  private static String afterToken(String token) throws S3Error {
    if (token == null) {
      return "";
    }
    try {
      return new String(Base64.getUrlDecoder().decode(token.strip()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("The continuation token provided is incorrect");
    }
  }

  /**
   * Creates a bucket owned by the caller, with the ACL its headers set and the location its body names. Its owner
   * creating it again succeeds and changes nothing, as in S3's us-east-1; with another ACL or location than it
   * has, or by another user, BucketAlreadyExists.
   */
  void create(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    if (caller.anonymous()) {
      throw S3ErrorCode.ACCESS_DENIED.error("Anonymous callers may not create buckets");
    }
    S3Acl acl = acls.fromHeaders(request, caller.accessId(), caller.accessId());
    if (request.header("x-amz-bucket-object-lock-enabled") != null
        && !request.header("x-amz-bucket-object-lock-enabled").strip().equalsIgnoreCase("false")) {
      throw S3ErrorCode.NOT_IMPLEMENTED.error("Object lock is not implemented");
    }
    String location = locationConstraint(request);
    ObjectOwnership ownership = OwnershipOps.parse(request.header("x-amz-object-ownership"));
    BucketInfo wanted = BucketInfo.newBuilder().setVolume(volume).setName(request.bucket())
        .setOwner(caller.accessId()).setLayout(layout).setFactor(ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED)
        .setAcl(acl.canned()).setGrants(acl.given()).setLocation(location).setObjectOwnership(ownership).build();
    try {
      createVolumeIfMissing();
      om.createBucket(wanted);
    } catch (OmException e) {
      if (e.result() != OmResult.BUCKET_ALREADY_EXISTS) {
        throw OmCalls.translate(e, request.bucket(), "");
      }
      BucketInfo existing = find(request);
      if (!existing.getOwner().equals(caller.accessId()) || !S3Acl.of(existing).equals(acl)
          || !existing.getLocation().equals(location)) {
        throw OmCalls.translate(e, request.bucket(), "");
      }
    }
    out.headers().set("Location", "/" + request.bucket());
    out.send(200, new byte[0], null);
  }

  /**
   * The region a CreateBucketConfiguration names (empty when the request has none), kept with the bucket for
   * GetBucketLocation and HEAD to answer: this gateway serves every region it is given.
   */
  private static String locationConstraint(S3Request request) throws S3Error, IOException {
    byte[] body = request.body().readNBytes(XmlInput.MAX_BYTES + 1);
    if (body.length == 0) {
      return "";
    }
    Element configuration = XmlInput.parse(new ByteArrayInputStream(body), S3ErrorCode.MALFORMED_XML);
    String location = XmlInput.text(configuration, "LocationConstraint");
    if (!configuration.getTagName().equals("CreateBucketConfiguration") || location == null) {
      return "";
    }
    if (!REGION_NAME.matcher(location).matches()) {
      throw S3ErrorCode.INVALID_LOCATION_CONSTRAINT.error("The specified location-constraint is not valid: "
          + S3Error.quote(location));
    }
    return location;
  }

  private void createVolumeIfMissing() throws OmException {
    try {
      om.getVolume(volume);
    } catch (OmException e) {
      if (e.result() != OmResult.VOLUME_NOT_FOUND) {
        throw e;
      }
      try {
        om.createVolume(VolumeInfo.newBuilder().setName(volume).setOwner("s3").build());
      } catch (OmException raced) {
        if (raced.result() != OmResult.VOLUME_ALREADY_EXISTS) {
          throw raced;
        }
      }
    }
  }

  void head(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = require(request, caller, Access.Permission.READ);
    out.headers().set("x-amz-bucket-region", bucket.getLocation().isEmpty() ? REGION : bucket.getLocation());
    out.sendHead(200, 0);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    require(request, caller, Access.Permission.OWNER);
    OmCalls.run(request.bucket(), "", () -> om.deleteBucket(volume, request.bucket()));
    out.send(204, new byte[0], null);
  }

  void location(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = require(request, caller, Access.Permission.OWNER);
    Xml xml = Xml.document("LocationConstraint");
    if (!bucket.getLocation().isEmpty()) {
      xml.text(bucket.getLocation());
    }
    out.send(200, xml.close("LocationConstraint").bytes(), "application/xml");
  }
}
