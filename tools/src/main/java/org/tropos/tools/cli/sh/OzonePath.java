package org.tropos.tools.cli.sh;

import java.util.Optional;

/**
 * A path as {@code tropos sh} takes it, like Ozone's: {@code /volume/bucket/key} (the key may hold '/'), or with
 * the OM named in front, {@code o3://om-host[:port]/volume/bucket/key}.
 */
record OzonePath(Optional<String> omAddress, String volume, String bucket, String key) {
  static OzonePath parse(String text) {
    String rest = text;
    Optional<String> om = Optional.empty();
    if (rest.startsWith("o3://")) {
      rest = rest.substring("o3://".length());
      int slash = rest.indexOf('/');
      String authority = slash < 0 ? rest : rest.substring(0, slash);
      om = authority.isEmpty() ? Optional.empty() : Optional.of(authority);
      rest = slash < 0 ? "" : rest.substring(slash);
    }
    while (rest.startsWith("/")) {
      rest = rest.substring(1);
    }
    String[] parts = rest.split("/", 3);
    return new OzonePath(om, parts.length > 0 ? parts[0] : "", parts.length > 1 ? parts[1] : "",
        parts.length > 2 ? parts[2] : "");
  }

  OzonePath requireVolume() {
    if (volume.isEmpty()) {
      throw new IllegalArgumentException("expected /volume, got an empty path");
    }
    return this;
  }

  OzonePath requireBucket() {
    if (volume.isEmpty() || bucket.isEmpty()) {
      throw new IllegalArgumentException("expected /volume/bucket");
    }
    return this;
  }

  OzonePath requireKey() {
    if (volume.isEmpty() || bucket.isEmpty() || key.isEmpty()) {
      throw new IllegalArgumentException("expected /volume/bucket/key");
    }
    return this;
  }
}
