package org.tropos.common.security;

import java.io.IOException;
import java.util.Optional;
import java.util.UUID;

/** The block-token keys a daemon holds: the newest to sign with, any not expired to verify with. */
public interface SecretKeyRing {
  /** The key to sign a token with now. */
  SecretKey current() throws IOException;

  /** The key {@code id}, if SCM made it and it is not expired. */
  Optional<SecretKey> find(UUID id) throws IOException;
}
