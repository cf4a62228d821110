package org.tropos.s3.ops;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.acl.S3Actions;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.http.S3Request;

/**
 * What an S3 request asks of buckets' policies: its action, its resource ({@code bucket} or {@code bucket/key}) and
 * the values of the condition keys AWS gives requests: {@code aws:SourceIp}, {@code aws:SecureTransport},
 * {@code aws:Referer}, {@code aws:UserAgent}, {@code aws:username}; every {@code x-amz-*} header as
 * {@code s3:x-amz-*} (the copy source as {@code bucket/key}); a listing's {@code s3:prefix}, {@code s3:delimiter},
 * {@code s3:max-keys}; {@code s3:VersionId}; the tags a write gives as {@code s3:RequestObjectTag/<name>} and
 * {@code s3:RequestObjectTagKeys}.
 */
final class PolicyRequests {
  private static final List<String> LISTING_PARAMETERS = List.of("prefix", "delimiter", "max-keys");

  private PolicyRequests() {
  }

  /** {@code user}'s request as action {@code action} (on the version it names, if it names one). */
  static PolicyRequest of(S3Request request, String user, String action) {
    return new PolicyRequest(user, S3Actions.onVersion(action, request.param("versionId")),
        PolicyRequest.resource(request.bucket(), request.key()), conditions(request, user));
  }

  private static Map<String, List<String>> conditions(S3Request request, String user) {
    Map<String, List<String>> conditions = new HashMap<>();
    put(conditions, "aws:SourceIp", request.from().isEmpty() ? null : request.from());
    put(conditions, "aws:SecureTransport", Boolean.toString(request.secure()));
    put(conditions, "aws:Referer", request.header("referer"));
    put(conditions, "aws:UserAgent", request.header("user-agent"));
    put(conditions, "aws:username", user.isEmpty() ? null : user);
    put(conditions, "aws:userid", user.isEmpty() ? null : user);
    request.amzHeaders().forEach((name, value) -> put(conditions, "s3:" + name, name.equals("x-amz-copy-source")
        ? copySource(value) : value));
    for (String parameter : LISTING_PARAMETERS) {
      put(conditions, "s3:" + parameter, request.param(parameter));
    }
    put(conditions, S3Actions.VERSION_ID, request.param("versionId"));
    try {
      Map<String, String> tags = TaggingOps.fromHeader(request.header("x-amz-tagging"));
      tags.forEach((name, value) -> put(conditions, "s3:RequestObjectTag/" + name, value));
      if (!tags.isEmpty()) {
        conditions.put("s3:RequestObjectTagKeys", new ArrayList<>(tags.keySet()));
      }
    } catch (S3Error e) {
      // Malformed tags: the write refuses them itself; a policy sees none.
    }
    return conditions;
  }

  /** {@code x-amz-copy-source} as {@code bucket/key}: decoded, without a leading slash or a version. */
  private static String copySource(String header) {
    String source = header.strip();
    int query = source.indexOf('?');
    source = URLDecoder.decode((query < 0 ? source : source.substring(0, query)).replace("+", "%2B"),
        StandardCharsets.UTF_8);
    return source.startsWith("/") ? source.substring(1) : source;
  }

  private static void put(Map<String, List<String>> conditions, String key, String value) {
    if (value != null) {
      conditions.put(key, List.of(value));
    }
  }
}
