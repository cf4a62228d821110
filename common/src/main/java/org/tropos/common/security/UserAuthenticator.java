package org.tropos.common.security;

import io.grpc.Metadata;
import java.util.Optional;

/** How a server checks the credential a caller without a certificate sends ({@link CredentialHeaders}). */
public interface UserAuthenticator {
  /** A server that takes no such credential. */
  UserAuthenticator NONE = headers -> Optional.empty();

  /**
   * The user the call's credential proves; empty when the call carries no credential of the kind this checks.
   *
   * @throws AuthenticationException when it carries one that proves nobody
   */
  Optional<AuthenticatedUser> authenticate(Metadata headers) throws AuthenticationException;

  /** This, then {@code other} for the credentials this does not read. */
  default UserAuthenticator or(UserAuthenticator other) {
    return headers -> {
      Optional<AuthenticatedUser> mine = authenticate(headers);
      return mine.isPresent() ? mine : other.authenticate(headers);
    };
  }
}
