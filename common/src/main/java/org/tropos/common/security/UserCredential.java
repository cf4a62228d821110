package org.tropos.common.security;

import io.grpc.Metadata;
import java.io.IOException;
import java.util.Optional;

/** What a user's client without a certificate sends with each call to prove who it is ({@link CredentialHeaders}). */
public interface UserCredential {
  /**
   * Adds to {@code headers} the proof for a server of {@code role} on {@code host}; adds nothing for servers this
   * credential is not meant for.
   *
   * @throws IOException when no proof can be made (no ticket, the KDC unreachable)
   */
  void attach(Metadata headers, ServiceRole role, String host) throws IOException;

  /** The user this credential proves, where the client can tell (a Kerberos principal's first component). */
  default Optional<String> user() {
    return Optional.empty();
  }
}
