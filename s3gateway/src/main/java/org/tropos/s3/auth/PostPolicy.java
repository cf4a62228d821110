package org.tropos.s3.auth;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * The policy of a browser-form upload (POST object): a base64 JSON document, signed by the uploader's key, that
 * says until when it holds and what the form may contain. Every form field must satisfy every condition that
 * names it, and every field must be named by one (except the signature's own fields, the file and
 * {@code x-ignore-*}): a form cannot carry what its signer did not allow. The file's size is bounded by
 * {@code content-length-range}, which the upload checks as the bytes stream ({@link #minLength},
 * {@link #maxLength}).
 *
 * <p>Immutable; thread-safe.
 */
public final class PostPolicy {
  /** A condition on one field: its value equals, or starts with, {@code value}. */
  private record Condition(boolean prefix, String field, String value, String shown) {
    boolean holds(String given) {
      if (!prefix) {
        return given.equals(value);
      }
      if (field.equals("content-type")) {
        // A Content-Type may list several types; each must start with the prefix.
        for (String type : given.split(",")) {
          if (!type.strip().startsWith(value)) {
            return false;
          }
        }
        return true;
      }
      return given.startsWith(value);
    }
  }

  /** Fields a policy need not name: the policy and signature themselves, and what S3 lets forms add freely. */
  private static final Set<String> UNNAMED = Set.of("policy", "signature", "awsaccesskeyid", "x-amz-signature",
      "file");
  private static final List<String> UNNAMED_PREFIXES = List.of("x-ignore-", "x-amz-checksum-");

  private final Instant expiration;
  private final List<Condition> conditions;
  private final long minLength;
  private final long maxLength;

  private PostPolicy(Instant expiration, List<Condition> conditions, long minLength, long maxLength) {
    this.expiration = expiration;
    this.conditions = conditions;
    this.minLength = minLength;
    this.maxLength = maxLength;
  }

  /** Reads the policy as sent (base64 JSON); InvalidPolicyDocument when it is not a policy. */
  public static PostPolicy parse(String base64) throws S3Error {
    JsonObject document;
    try {
      String json = new String(Base64.getMimeDecoder().decode(base64.strip()), StandardCharsets.UTF_8);
      document = JsonParser.parseString(json).getAsJsonObject();
    } catch (IllegalArgumentException | JsonParseException | IllegalStateException e) {
      throw invalid("the policy is not base64-encoded JSON");
    }
    JsonElement expiration = document.get("expiration");
    if (expiration == null || !expiration.isJsonPrimitive()) {
      throw invalid("the policy has no expiration");
    }
    Instant expires;
    try {
      expires = Instant.parse(expiration.getAsString());
    } catch (DateTimeParseException e) {
      throw invalid("the policy's expiration is not an ISO 8601 time in UTC (2026-01-01T12:00:00.000Z)");
    }
    JsonElement list = document.get("conditions");
    if (list == null || !list.isJsonArray()) {
      throw invalid("the policy has no conditions list");
    }
    List<Condition> conditions = new ArrayList<>();
    long[] range = {0, Long.MAX_VALUE};
    for (JsonElement condition : list.getAsJsonArray()) {
      if (condition.isJsonObject()) {
        conditions.add(exact(condition.getAsJsonObject()));
      } else if (condition.isJsonArray()) {
        read(condition.getAsJsonArray(), conditions, range);
      } else {
        throw invalid("a condition is neither an object nor a list: " + condition);
      }
    }
    return new PostPolicy(expires, List.copyOf(conditions), range[0], range[1]);
  }

  /** {"field": "value"}: the field equals the value. */
  private static Condition exact(JsonObject condition) throws S3Error {
    if (condition.size() != 1) {
      throw invalid("a condition object names exactly one field: " + condition);
    }
    Map.Entry<String, JsonElement> entry = condition.entrySet().iterator().next();
    return new Condition(false, entry.getKey().toLowerCase(Locale.ROOT), text(entry.getValue(), condition),
        condition.toString());
  }

  /** ["eq" | "starts-with", "$field", "value"] or ["content-length-range", min, max]. */
  private static void read(JsonArray condition, List<Condition> conditions, long[] range) throws S3Error {
    if (condition.isEmpty() || !condition.get(0).isJsonPrimitive()) {
      throw invalid("a condition list starts with its operator: " + condition);
    }
    String operator = condition.get(0).getAsString().toLowerCase(Locale.ROOT);
    if (condition.size() != 3) {
      throw invalid("a condition list has an operator and two arguments: " + condition);
    }
    if (operator.equals("content-length-range")) {
      long min = length(condition.get(1), condition);
      long max = length(condition.get(2), condition);
      if (min > max) {
        throw invalid("content-length-range's minimum is above its maximum: " + condition);
      }
      range[0] = Math.max(range[0], min);
      range[1] = Math.min(range[1], max);
      return;
    }
    if (!operator.equals("eq") && !operator.equals("starts-with")) {
      throw invalid("unknown condition " + condition + ": expected eq, starts-with or content-length-range");
    }
    String field = text(condition.get(1), condition);
    if (!field.startsWith("$") || field.length() == 1) {
      throw invalid("a condition names its field as $name: " + condition);
    }
    conditions.add(new Condition(operator.equals("starts-with"), field.substring(1).toLowerCase(Locale.ROOT),
        text(condition.get(2), condition), condition.toString()));
  }

  private static String text(JsonElement value, JsonElement condition) throws S3Error {
    if (!value.isJsonPrimitive()) {
      throw invalid("a condition's value is not a string: " + condition);
    }
    return value.getAsString();
  }

  private static long length(JsonElement value, JsonElement condition) throws S3Error {
    try {
      long length = Long.parseLong(text(value, condition).strip());
      if (length < 0) {
        throw invalid("content-length-range takes lengths of 0 or more: " + condition);
      }
      return length;
    } catch (NumberFormatException e) {
      throw invalid("content-length-range takes whole numbers: " + condition);
    }
  }

  /**
   * Checks the form's fields (lower-case names, the bucket among them) against the policy at {@code now}:
   * AccessDenied when it expired, a condition fails or a field is not named by any condition.
   */
  public void check(Map<String, String> fields, Instant now) throws S3Error {
    if (!now.isBefore(expiration)) {
      throw S3ErrorCode.ACCESS_DENIED.error("Invalid according to Policy: Policy expired.");
    }
    for (Condition condition : conditions) {
      if (!condition.holds(fields.getOrDefault(condition.field(), ""))) {
        throw S3ErrorCode.ACCESS_DENIED.error("Invalid according to Policy: Policy Condition failed: "
            + S3Error.quote(condition.shown()));
      }
    }
    for (String field : fields.keySet()) {
      if (!UNNAMED.contains(field) && UNNAMED_PREFIXES.stream().noneMatch(field::startsWith)
          && conditions.stream().noneMatch(c -> c.field().equals(field))) {
        throw S3ErrorCode.ACCESS_DENIED.error("Invalid according to Policy: Extra input fields: "
            + S3Error.quote(field));
      }
    }
  }

  /** The fewest bytes the file may have. */
  public long minLength() {
    return minLength;
  }

  /** The most bytes the file may have. */
  public long maxLength() {
    return maxLength;
  }

  private static S3Error invalid(String why) {
    // A condition quoted in the reason is the client's text: cut so that a huge policy never makes a huge error.
    return S3ErrorCode.INVALID_POLICY_DOCUMENT.error("Invalid Policy: " + (why.length() <= S3Error.MAX_SHOWN ? why
        : why.substring(0, S3Error.MAX_SHOWN) + "..."));
  }
}
