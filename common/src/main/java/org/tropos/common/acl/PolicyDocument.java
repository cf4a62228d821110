package org.tropos.common.acl;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * An S3 policy document: statements that allow or deny S3 actions on buckets and their keys, under conditions.
 * A bucket's policy (PutBucketPolicy, {@link #forBucket}) names the principals each statement speaks of; an identity
 * policy (attached to users and groups, {@link #forIdentity}) speaks of whom it is attached to and names no
 * principal. Evaluated as AWS does: an explicit Deny of a matching statement wins, else an Allow grants, else the
 * policy says nothing. Principals are {@code "*"} or {@code {"AWS": "*"}} (everyone, anonymous callers included) or
 * users, by name or as {@code arn:aws:iam::<account>:user/<name>} (an account's root names nobody here: Tropos has
 * no accounts); resources are {@code arn:aws:s3:::<bucket>[/<key pattern>]} patterns, which in a bucket's policy
 * must be able to name that bucket.
 *
 * <p>Immutable; thread-safe.
 */
public final class PolicyDocument {
  /** What a policy says of a request. */
  public enum Decision {
    ALLOW, DENY, NONE;

    /** Whether the request is allowed: as decided, or as {@code otherwise} says where the policy is silent. */
    public boolean allows(BooleanSupplier otherwise) {
      return this == NONE ? otherwise.getAsBoolean() : this == ALLOW;
    }

    /** What two policies say together: a Deny of either wins, else an Allow of either grants. */
    public Decision and(Decision other) {
      return this == DENY || other == DENY ? DENY : this == ALLOW || other == ALLOW ? ALLOW : NONE;
    }
  }

  private static final Set<String> VERSIONS = Set.of("2012-10-17", "2008-10-17");
  private static final String EVERYONE = "*";
  private static final String ARN = "arn:aws:s3:::";
  private static final String USER_ARN = ":user/";

  private record Statement(boolean allow, Set<String> principals, boolean notPrincipal, List<String> actions,
      boolean notAction, List<String> resources, boolean notResource, List<PolicyCondition> conditions) {
    boolean applies(PolicyRequest request) {
      return names(request.user()) && notAction != matchesAny(actions, request.action(), true)
          && notResource != matchesAny(resources, request.resource(), false)
          && conditions.stream().allMatch(c -> c.holds(request));
    }

    private boolean names(String user) {
      return notPrincipal != (principals.contains(EVERYONE) || !user.isEmpty() && principals.contains(user));
    }

    private static boolean matchesAny(List<String> patterns, String value, boolean ignoreCase) {
      return patterns.stream().anyMatch(p -> Globs.matches(p, value, ignoreCase));
    }
  }

  private final List<Statement> statements;

  private PolicyDocument(List<Statement> statements) {
    this.statements = List.copyOf(statements);
  }

  /** Parses and checks {@code json} as the policy of {@code bucket}; fails with why it is malformed. */
  public static PolicyDocument forBucket(String json, String bucket) {
    return parse(json, bucket);
  }

  /** Parses and checks {@code json} as an identity policy; fails with why it is malformed. */
  public static PolicyDocument forIdentity(String json) {
    return parse(json, null);
  }

  /** {@code bucket}: the bucket whose policy this is; null for an identity policy. */
  private static PolicyDocument parse(String json, String bucket) {
    JsonObject document;
    try {
      JsonElement parsed = JsonParser.parseString(json);
      if (!parsed.isJsonObject()) {
        throw new IllegalArgumentException("a policy is a JSON object");
      }
      document = parsed.getAsJsonObject();
    } catch (JsonParseException e) {
      throw new IllegalArgumentException("the policy is not JSON: " + e.getMessage());
    }
    if (document.has("Version") && !VERSIONS.contains(string(document.get("Version"), "Version"))) {
      throw new IllegalArgumentException("the policy's Version must be 2012-10-17 or 2008-10-17");
    }
    List<Statement> statements = new ArrayList<>();
    for (JsonElement element : list(document.get("Statement"), "Statement")) {
      if (!element.isJsonObject()) {
        throw new IllegalArgumentException("a Statement is a JSON object");
      }
      statements.add(statement(element.getAsJsonObject(), bucket));
    }
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("a policy has at least one Statement");
    }
    return new PolicyDocument(statements);
  }

  /** What the policy says of {@code request}: DENY if a statement denies it, else ALLOW if one allows it. */
  public Decision decide(PolicyRequest request) {
    Decision decision = Decision.NONE;
    for (Statement statement : statements) {
      if (statement.applies(request)) {
        if (!statement.allow()) {
          return Decision.DENY;
        }
        decision = Decision.ALLOW;
      }
    }
    return decision;
  }

  /** Whether the policy allows something to everyone, unconditionally (GetBucketPolicyStatus's IsPublic). */
  public boolean isPublic() {
    return statements.stream().anyMatch(s -> s.allow() && s.principals().contains(EVERYONE)
        && s.conditions().isEmpty());
  }

  private static Statement statement(JsonObject json, String bucket) {
    String effect = string(json.get("Effect"), "Effect");
    if (!effect.equals("Allow") && !effect.equals("Deny")) {
      throw new IllegalArgumentException("a Statement's Effect is Allow or Deny, not " + effect);
    }
    boolean allow = effect.equals("Allow");
    boolean notPrincipal = json.has("NotPrincipal");
    if (notPrincipal && allow) {
      throw new IllegalArgumentException("NotPrincipal may only be used with Deny");
    }
    if (bucket == null && (notPrincipal || json.has("Principal"))) {
      throw new IllegalArgumentException("an identity policy names no Principal: it speaks of whom it is attached"
          + " to");
    }
    // An identity policy's statements speak of whoever it is asked about: only its users and groups ask it.
    Set<String> principals = bucket == null ? Set.of(EVERYONE) : principals(json.get(notPrincipal ? "NotPrincipal"
        : "Principal"));
    boolean notAction = json.has("NotAction");
    List<String> actions = strings(json.get(notAction ? "NotAction" : "Action"), "Action");
    for (String action : actions) {
      if (!action.equals("*") && !action.toLowerCase(Locale.ROOT).startsWith("s3:")) {
        throw new IllegalArgumentException("Policy has invalid action: " + action);
      }
    }
    boolean notResource = json.has("NotResource");
    List<String> resources = new ArrayList<>();
    for (String arn : strings(json.get(notResource ? "NotResource" : "Resource"), "Resource")) {
      resources.add(resource(arn, bucket));
    }
    return new Statement(allow, principals, notPrincipal, actions, notAction, resources, notResource,
        conditions(json.get("Condition")));
  }

  /**
   * {@code arn:aws:s3:::bucket[/pattern]} as {@code bucket[/pattern]}; fails unless it can name {@code bucket} (null:
   * any bucket, and {@code "*"} everything, as IAM takes it).
   */
  private static String resource(String arn, String bucket) {
    if (bucket == null && arn.equals(EVERYONE)) {
      return EVERYONE;
    }
    if (!arn.startsWith(ARN)) {
      throw new IllegalArgumentException("Policy has invalid resource: " + arn);
    }
    String resource = arn.substring(ARN.length());
    int slash = resource.indexOf('/');
    String named = slash < 0 ? resource : resource.substring(0, slash);
    if (bucket != null && !Globs.matches(named, bucket, false)) {
      throw new IllegalArgumentException("Policy has invalid resource: " + arn + " is not of bucket " + bucket);
    }
    return resource;
  }

  private static Set<String> principals(JsonElement json) {
    if (json == null) {
      throw new IllegalArgumentException("a Statement names its Principal");
    }
    if (json.isJsonPrimitive()) {
      if (!json.getAsString().equals(EVERYONE)) {
        throw new IllegalArgumentException("Invalid principal in policy: " + json);
      }
      return Set.of(EVERYONE);
    }
    if (!json.isJsonObject()) {
      throw new IllegalArgumentException("Invalid principal in policy: " + json);
    }
    Set<String> principals = new HashSet<>();
    for (Map.Entry<String, JsonElement> entry : json.getAsJsonObject().entrySet()) {
      if (!entry.getKey().equals("AWS") && !entry.getKey().equals("CanonicalUser")) {
        throw new IllegalArgumentException("Invalid principal in policy: " + entry.getKey());
      }
      for (String principal : strings(entry.getValue(), "Principal")) {
        int user = principal.indexOf(USER_ARN);
        principals.add(user >= 0 ? principal.substring(user + USER_ARN.length()) : principal);
      }
    }
    return principals;
  }

  private static List<PolicyCondition> conditions(JsonElement json) {
    List<PolicyCondition> conditions = new ArrayList<>();
    if (json == null) {
      return conditions;
    }
    if (!json.isJsonObject()) {
      throw new IllegalArgumentException("a Condition is a JSON object");
    }
    for (Map.Entry<String, JsonElement> operator : json.getAsJsonObject().entrySet()) {
      if (!operator.getValue().isJsonObject()) {
        throw new IllegalArgumentException("Condition operator " + operator.getKey() + " takes an object");
      }
      for (Map.Entry<String, JsonElement> test : operator.getValue().getAsJsonObject().entrySet()) {
        conditions.add(PolicyCondition.of(operator.getKey(), test.getKey(), strings(test.getValue(),
            test.getKey())));
      }
    }
    return conditions;
  }

  private static List<JsonElement> list(JsonElement json, String field) {
    if (json == null) {
      throw new IllegalArgumentException("the policy has no " + field);
    }
    List<JsonElement> elements = new ArrayList<>();
    if (json.isJsonArray()) {
      ((JsonArray) json).forEach(elements::add);
    } else {
      elements.add(json);
    }
    return elements;
  }

  private static List<String> strings(JsonElement json, String field) {
    List<String> values = new ArrayList<>();
    for (JsonElement element : list(json, field)) {
      values.add(string(element, field));
    }
    return values;
  }

  private static String string(JsonElement json, String field) {
    if (json == null || !json.isJsonPrimitive()) {
      throw new IllegalArgumentException(field + " must be a string (or a list of strings)");
    }
    return json.getAsString();
  }
}
