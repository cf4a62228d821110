package org.tropos.common.acl;

import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * One test of a policy statement's Condition block: an operator (StringEquals, StringLike, IpAddress, Bool,
 * Numeric..., Null, Arn..., each negatable and with the IfExists suffix and the ForAnyValue:/ForAllValues:
 * qualifiers), a condition key and the values it is compared with. A key the request lacks fails a test, passes a
 * negated one, and passes any test with IfExists.
 */
record PolicyCondition(String operator, String key, List<String> values) {
  private enum Kind { STRING, STRING_IGNORE_CASE, STRING_LIKE, NUMERIC, BOOL, IP, NULL }

  /** Fails on an operator AWS does not have (the policy is then malformed). */
  static PolicyCondition of(String operator, String key, List<String> values) {
    PolicyCondition condition = new PolicyCondition(operator, key, List.copyOf(values));
    condition.kind();
    return condition;
  }

  boolean holds(PolicyRequest request) {
    List<String> actual = request.values(key);
    Kind kind = kind();
    if (kind == Kind.NULL) {
      boolean wantsAbsent = values.stream().anyMatch(v -> v.equalsIgnoreCase("true"));
      return wantsAbsent == (actual == null || actual.isEmpty());
    }
    if (actual == null || actual.isEmpty()) {
      return ifExists() || negated();
    }
    boolean all = base().startsWith("forallvalues:");
    boolean matched = all ? actual.stream().allMatch(a -> matchesAny(kind, a))
        : actual.stream().anyMatch(a -> matchesAny(kind, a));
    return negated() != matched;
  }

  private boolean matchesAny(Kind kind, String actual) {
    for (String wanted : values) {
      if (matches(kind, wanted, actual)) {
        return true;
      }
    }
    return false;
  }

  private boolean matches(Kind kind, String wanted, String actual) {
    return switch (kind) {
      case STRING -> wanted.equals(actual);
      case STRING_IGNORE_CASE -> wanted.equalsIgnoreCase(actual);
      case STRING_LIKE -> Globs.matches(wanted, actual, false);
      case BOOL -> wanted.equalsIgnoreCase(actual);
      case NUMERIC -> numeric(wanted, actual);
      case IP -> inRange(wanted, actual);
      case NULL -> false;
    };
  }

  private boolean numeric(String wanted, String actual) {
    int order;
    try {
      order = new BigDecimal(actual.strip()).compareTo(new BigDecimal(wanted.strip()));
    } catch (NumberFormatException e) {
      return false;
    }
    String op = operatorName();
    return switch (op) {
      case "numericequals", "numericnotequals" -> order == 0;
      case "numericlessthan" -> order < 0;
      case "numericlessthanequals" -> order <= 0;
      case "numericgreaterthan" -> order > 0;
      default -> order >= 0;
    };
  }

  /** Whether address {@code actual} falls in {@code cidr} (an address, or address/prefix length). */
  static boolean inRange(String cidr, String actual) {
    int slash = cidr.indexOf('/');
    byte[] network = literalAddress(slash < 0 ? cidr : cidr.substring(0, slash));
    byte[] address = literalAddress(actual);
    if (network == null || address == null || network.length != address.length) {
      return false;
    }
    int bits;
    try {
      bits = slash < 0 ? network.length * 8 : Integer.parseInt(cidr.substring(slash + 1).strip());
    } catch (NumberFormatException e) {
      return false;
    }
    for (int i = 0; i < network.length && bits > 0; i++, bits -= 8) {
      int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
      if ((network[i] & mask) != (address[i] & mask)) {
        return false;
      }
    }
    return true;
  }

  /** The bytes of an IPv4 or IPv6 address written as one; null for anything else (never a name lookup). */
  private static byte[] literalAddress(String text) {
    String address = text.strip();
    if (address.isEmpty() || !address.matches("[0-9a-fA-F.:]+")) {
      return null;
    }
    try {
      return InetAddress.getByName(address).getAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** The operator without qualifier, without IfExists, lower case. */
  private String operatorName() {
    String name = base();
    int colon = name.indexOf(':');
    name = colon < 0 ? name : name.substring(colon + 1);
    return name.endsWith("ifexists") ? name.substring(0, name.length() - "ifexists".length()) : name;
  }

  private String base() {
    return operator.toLowerCase(Locale.ROOT);
  }

  private boolean ifExists() {
    return base().endsWith("ifexists");
  }

  private boolean negated() {
    String name = operatorName();
    return name.contains("not") && !name.equals("null");
  }

  private Kind kind() {
    String qualifier = base().contains(":") ? base().substring(0, base().indexOf(':')) : "";
    if (!qualifier.isEmpty() && !qualifier.equals("forallvalues") && !qualifier.equals("foranyvalue")) {
      throw new IllegalArgumentException("unknown condition qualifier in " + operator);
    }
    return switch (operatorName()) {
      case "stringequals", "stringnotequals", "arnequals", "arnnotequals" -> Kind.STRING;
      case "stringequalsignorecase", "stringnotequalsignorecase" -> Kind.STRING_IGNORE_CASE;
      case "stringlike", "stringnotlike", "arnlike", "arnnotlike" -> Kind.STRING_LIKE;
      case "numericequals", "numericnotequals", "numericlessthan", "numericlessthanequals", "numericgreaterthan",
          "numericgreaterthanequals" -> Kind.NUMERIC;
      case "bool" -> Kind.BOOL;
      case "ipaddress", "notipaddress" -> Kind.IP;
      case "null" -> Kind.NULL;
      default -> throw new IllegalArgumentException("unknown condition operator " + operator);
    };
  }
}
