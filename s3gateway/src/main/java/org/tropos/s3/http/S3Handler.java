package org.tropos.s3.http;

/** Serves one request on a worker thread; must send exactly one response. */
@FunctionalInterface
public interface S3Handler {
  void handle(S3Request request, S3Response response);
}
