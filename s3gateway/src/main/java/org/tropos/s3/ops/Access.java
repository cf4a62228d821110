package org.tropos.s3.ops;

import java.util.List;
import java.util.Set;
import org.tropos.proto.om.BucketInfo;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;

/** Who may do what: a bucket belongs to its creator; administrators ({@code ozone.administrators}) may do all. */
final class Access {
  private final Set<String> administrators;
  private final boolean everyoneIsAdministrator;

  Access(List<String> administrators) {
    this.administrators = Set.copyOf(administrators);
    this.everyoneIsAdministrator = administrators.contains("*");
  }

  boolean isAdministrator(String user) {
    return everyoneIsAdministrator || administrators.contains(user);
  }

  void checkOwner(BucketInfo bucket, String user) throws S3Error {
    if (!bucket.getOwner().equals(user) && !isAdministrator(user)) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied: bucket " + bucket.getName() + " belongs to another user");
    }
  }
}
