package org.tropos.s3.error;

import java.io.IOException;

/** An S3 error found while a body streams (a bad chunk signature, a wrong checksum), carried through I/O calls. */
public final class S3IOException extends IOException {
  private final transient S3Error error;

  public S3IOException(S3Error error) {
    super(error.getMessage(), error);
    this.error = error;
  }

  public S3Error error() {
    return error;
  }
}
