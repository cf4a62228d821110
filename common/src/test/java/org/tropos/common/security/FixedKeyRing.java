package org.tropos.common.security;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Block-token keys held in memory, as an OM or datanode holds those it fetched from SCM: the first signs. */
public final class FixedKeyRing implements SecretKeyRing {
  private final List<SecretKey> keys;

  public FixedKeyRing(SecretKey... keys) {
    this.keys = List.of(keys);
  }

  @Override
  public SecretKey current() {
    return keys.get(0);
  }

  @Override
  public Optional<SecretKey> find(UUID id) {
    return keys.stream().filter(k -> k.id().equals(id)).findFirst();
  }
}
