package org.tropos.s3.ops;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CorsRule;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.cors.CorsRules;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * CORS, as S3 serves browsers: Put/Get/DeleteBucketCors (the bucket owner's), the preflight ({@code OPTIONS},
 * unsigned, answered from the rules), and the {@code Access-Control-*} headers on a request that carries an
 * {@code Origin} its bucket's rules allow (presigned requests included).
 */
final class CorsOps {
  private final TroposClient om;
  private final BucketOps buckets;

  CorsOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    if (bucket.getCorsRulesCount() == 0) {
      throw S3ErrorCode.NO_SUCH_CORS_CONFIGURATION.error();
    }
    Xml xml = Xml.document("CORSConfiguration");
    for (CorsRule rule : bucket.getCorsRulesList()) {
      xml.open("CORSRule");
      if (!rule.getId().isEmpty()) {
        xml.element("ID", rule.getId());
      }
      rule.getAllowedHeadersList().forEach(h -> xml.element("AllowedHeader", h));
      rule.getAllowedMethodsList().forEach(m -> xml.element("AllowedMethod", m));
      rule.getAllowedOriginsList().forEach(o -> xml.element("AllowedOrigin", o));
      rule.getExposeHeadersList().forEach(h -> xml.element("ExposeHeader", h));
      if (rule.hasMaxAgeSeconds()) {
        xml.element("MaxAgeSeconds", rule.getMaxAgeSeconds());
      }
      xml.close("CORSRule");
    }
    out.send(200, xml.close("CORSConfiguration").bytes(), "application/xml");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    List<CorsRule> rules = parse(XmlInput.parse(request.body()));
    CorsRules.check(rules);
    set(request, rules);
    out.send(200, new byte[0], null);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.OWNER);
    set(request, List.of());
    out.send(204, new byte[0], null);
  }

  private void set(S3Request request, List<CorsRule> rules) throws S3Error {
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume(buckets.volume()).setName(request.bucket()).setSetCors(true).addAllCorsRules(rules).build()));
  }

  private static List<CorsRule> parse(Element root) throws S3Error {
    if (!root.getTagName().equals("CORSConfiguration")) {
      throw S3ErrorCode.MALFORMED_XML.error();
    }
    List<CorsRule> rules = new ArrayList<>();
    for (Element r : XmlInput.children(root, "CORSRule")) {
      CorsRule.Builder rule = CorsRule.newBuilder();
      String id = XmlInput.text(r, "ID");
      if (id != null) {
        rule.setId(id);
      }
      XmlInput.children(r, "AllowedOrigin").forEach(e -> rule.addAllowedOrigins(e.getTextContent().strip()));
      XmlInput.children(r, "AllowedMethod").forEach(e -> rule.addAllowedMethods(e.getTextContent().strip()));
      XmlInput.children(r, "AllowedHeader").forEach(e -> rule.addAllowedHeaders(e.getTextContent().strip()));
      XmlInput.children(r, "ExposeHeader").forEach(e -> rule.addExposeHeaders(e.getTextContent().strip()));
      String maxAge = XmlInput.text(r, "MaxAgeSeconds");
      if (maxAge != null) {
        try {
          rule.setMaxAgeSeconds(Integer.parseInt(maxAge.strip()));
        } catch (NumberFormatException e) {
          throw S3ErrorCode.MALFORMED_XML.error("MaxAgeSeconds must be a number.");
        }
      }
      rules.add(rule.build());
    }
    return rules;
  }

  /**
   * A preflight: 200 with what the first matching rule allows, else 403; unsigned, as browsers send it, so it
   * reveals only whether the bucket's rules allow what was asked.
   */
  void preflight(S3Request request, S3Response out) throws S3Error {
    String origin = request.header("origin");
    String method = request.header("access-control-request-method");
    if (origin == null) {
      throw S3ErrorCode.BAD_REQUEST.error("Insufficient information. Origin request header needed.");
    }
    if (method == null) {
      throw S3ErrorCode.BAD_REQUEST.error("Invalid Access-Control-Request-Method: null");
    }
    if (request.bucket().isEmpty()) {
      throw S3ErrorCode.ACCESS_FORBIDDEN.error();
    }
    CorsRules rules = new CorsRules(buckets.find(request.bucket(), null).getCorsRulesList());
    if (rules.isEmpty()) {
      throw S3ErrorCode.ACCESS_FORBIDDEN.error();
    }
    List<String> asked = CorsRules.requestHeaders(request.header("access-control-request-headers"));
    CorsRule rule = rules.match(origin, method.strip(), asked).orElseThrow(() -> S3ErrorCode.ACCESS_FORBIDDEN
        .error("CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin,"
            + " request method / Access-Control-Request-Method or Access-Control-Request-Headers are not"
            + " whitelisted by the resource's CORS spec."));
    CorsRules.headers(rule, origin, true, asked).forEach(out.headers()::set);
    out.send(200, new byte[0], null);
  }

  /**
   * Sets the CORS headers of a request from a browser (one with an Origin) that its bucket's rules allow for its
   * method (or the Access-Control-Request-Method it names); nothing for others, and nothing when the bucket cannot
   * be read: the request itself answers that. Set before the request is served, so an error answer has them too,
   * and the browser lets the page read why it failed.
   */
  void addHeaders(S3Request request, S3Response out) {
    String origin = request.header("origin");
    if (origin == null || request.bucket().isEmpty()) {
      return;
    }
    BucketInfo bucket;
    try {
      bucket = buckets.find(request.bucket(), null);
    } catch (S3Error e) {
      return;
    }
    String asked = request.header("access-control-request-method");
    Optional<CorsRule> rule = new CorsRules(bucket.getCorsRulesList()).match(origin,
        asked != null ? asked.strip() : request.method(), List.of());
    rule.ifPresent(r -> CorsRules.headers(r, origin, false, List.of()).forEach(out.headers()::set));
  }
}
