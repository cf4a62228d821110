package org.tropos.s3.ops;

import org.tropos.proto.om.BucketInfo;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.S3Error;
import org.tropos.s3.auth.Caller;

/** Who may do what: a bucket belongs to its creator; the OM's administrators may do all. */
final class Access {
  private Access() {
  }

  static void checkOwner(BucketInfo bucket, Caller caller) throws S3Error {
    if (!bucket.getOwner().equals(caller.accessId()) && !caller.administrator()) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied: bucket " + bucket.getName() + " belongs to another"
          + " user");
    }
  }
}
