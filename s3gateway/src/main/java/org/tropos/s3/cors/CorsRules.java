package org.tropos.s3.cors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.tropos.proto.om.CorsRule;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * A bucket's CORS rules as S3 applies them: the first rule that allows the origin, the method and every request
 * header answers; an origin or header pattern holds at most one {@code *}, which stands for any run of characters.
 * Origins and methods match exactly, header names in any case.
 *
 * <p>Immutable; thread-safe.
 */
public final class CorsRules {
  /** S3's limits and the methods a rule may allow. */
  static final int MAX_RULES = 100;
  private static final Set<String> METHODS = Set.of("GET", "PUT", "HEAD", "POST", "DELETE");

  private final List<CorsRule> rules;

  public CorsRules(List<CorsRule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** InvalidRequest unless {@code rules} are a configuration S3 would accept (MalformedXML for none). */
  public static void check(List<CorsRule> rules) throws S3Error {
    if (rules.isEmpty() || rules.size() > MAX_RULES) {
      throw S3ErrorCode.MALFORMED_XML.error("A CORS configuration holds 1 to " + MAX_RULES + " rules.");
    }
    for (CorsRule rule : rules) {
      if (rule.getAllowedOriginsCount() == 0 || rule.getAllowedMethodsCount() == 0) {
        throw S3ErrorCode.MALFORMED_XML.error("Each CORSRule names at least one AllowedOrigin and AllowedMethod.");
      }
      for (String method : rule.getAllowedMethodsList()) {
        if (!METHODS.contains(method)) {
          throw S3ErrorCode.INVALID_REQUEST.error("Found unsupported HTTP method in CORS config. Unsupported method"
              + " is " + method);
        }
      }
      for (String origin : rule.getAllowedOriginsList()) {
        if (origin.indexOf('*') != origin.lastIndexOf('*')) {
          throw S3ErrorCode.INVALID_REQUEST.error("AllowedOrigin \"" + origin + "\" can not have more than one"
              + " wildcard.");
        }
      }
      for (String header : rule.getAllowedHeadersList()) {
        if (header.indexOf('*') != header.lastIndexOf('*')) {
          throw S3ErrorCode.INVALID_REQUEST.error("AllowedHeader \"" + header + "\" can not have more than one"
              + " wildcard.");
        }
      }
    }
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The first rule allowing {@code origin} to send {@code method} with {@code headers} (lower case). */
  public Optional<CorsRule> match(String origin, String method, List<String> headers) {
    for (CorsRule rule : rules) {
      if (rule.getAllowedOriginsList().stream().anyMatch(p -> matches(p, origin))
          && rule.getAllowedMethodsList().contains(method)
          && headers.stream().allMatch(h -> rule.getAllowedHeadersList().stream()
              .anyMatch(p -> matches(p.toLowerCase(Locale.ROOT), h)))) {
        return Optional.of(rule);
      }
    }
    return Optional.empty();
  }

  /**
   * The headers that tell a browser what {@code rule} allows {@code origin}: the origin and methods, the headers
   * its scripts may read, and for a preflight ({@code preflight}, with the request headers it asked for) the
   * request headers and how long to cache the answer.
   */
  public static Map<String, String> headers(CorsRule rule, String origin, boolean preflight,
      List<String> requestHeaders) {
    Map<String, String> headers = new LinkedHashMap<>();
    boolean anyOrigin = rule.getAllowedOriginsList().contains("*");
    headers.put("Access-Control-Allow-Origin", anyOrigin ? "*" : origin);
    if (!anyOrigin) {
      headers.put("Access-Control-Allow-Credentials", "true");
    }
    headers.put("Vary", "Origin, Access-Control-Request-Headers, Access-Control-Request-Method");
    if (rule.getExposeHeadersCount() > 0) {
      headers.put("Access-Control-Expose-Headers", String.join(", ", rule.getExposeHeadersList()));
    }
    headers.put("Access-Control-Allow-Methods", String.join(", ", rule.getAllowedMethodsList()));
    if (preflight) {
      if (!requestHeaders.isEmpty()) {
        headers.put("Access-Control-Allow-Headers", String.join(", ", requestHeaders));
      }
      if (rule.hasMaxAgeSeconds()) {
        headers.put("Access-Control-Max-Age", Integer.toString(rule.getMaxAgeSeconds()));
      }
    }
    return headers;
  }

  /** The header names of an Access-Control-Request-Headers value, lower case. */
  public static List<String> requestHeaders(String value) {
    List<String> names = new ArrayList<>();
    if (value != null) {
      for (String name : value.split(",")) {
        if (!name.isBlank()) {
          names.add(name.strip().toLowerCase(Locale.ROOT));
        }
      }
    }
    return names;
  }

  /** Whether {@code value} matches {@code pattern}, whose one {@code *} (if any) stands for any characters. */
  static boolean matches(String pattern, String value) {
    int star = pattern.indexOf('*');
    if (star < 0) {
      return pattern.equals(value);
    }
    String before = pattern.substring(0, star);
    String after = pattern.substring(star + 1);
    return value.length() >= before.length() + after.length() && value.startsWith(before) && value.endsWith(after);
  }
}
