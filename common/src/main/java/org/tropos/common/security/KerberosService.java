package org.tropos.common.security;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;

/**
 * A daemon's Kerberos principal and keytab ({@code ozone.om.kerberos.principal} and its keytab, say), with which
 * it accepts users' tickets.
 *
 * @param principal the principal, {@code _HOST} standing for the daemon's host
 * @param keytab the file holding the principal's key
 */
public record KerberosService(String principal, Path keytab) {
  /** The service {@code conf} names with these keys: both set, or neither (empty). */
  public static Optional<KerberosService> from(Configuration conf, ConfigKey<String> principalKey,
      ConfigKey<String> keytabKey) {
    String principal = conf.get(principalKey);
    String keytab = conf.get(keytabKey);
    if (principal.isBlank() && keytab.isBlank()) {
      return Optional.empty();
    }
    if (principal.isBlank() || keytab.isBlank()) {
      throw new ConfigException("set both " + principalKey.name() + " and " + keytabKey.name() + ", or neither");
    }
    return Optional.of(new KerberosService(principal, Path.of(keytab)));
  }

  /** Logs in from the keytab, as the daemon on {@code host}, to accept tickets. */
  public KerberosAcceptor acceptor(String host) throws IOException {
    return KerberosAcceptor.login(principal, host, keytab);
  }
}
