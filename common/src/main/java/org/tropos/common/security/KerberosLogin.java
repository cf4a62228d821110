package org.tropos.common.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

/**
 * Logs in to Kerberos through the JDK's own login module, configured here rather than by a JAAS file an operator
 * would have to write: a daemon from its keytab, a user's client from the ticket cache {@code kinit} filled. The
 * KDC and realm come from the JDK's krb5.conf ({@code /etc/krb5.conf}, or {@code -Djava.security.krb5.conf}).
 */
public final class KerberosLogin {
  private static final String MODULE = "com.sun.security.auth.module.Krb5LoginModule";

  private KerberosLogin() {
  }

  /**
   * The subject of {@code principal} whose keys are in {@code keytab}: an acceptor only ({@code initiator} false:
   * a server, which needs no ticket of its own and so no KDC to log in), or also an initiator (a user's client).
   */
  public static Subject fromKeytab(String principal, Path keytab, boolean initiator) throws IOException {
    if (!Files.isReadable(keytab)) {
      throw new IOException("the keytab " + keytab + " of " + principal + " is missing or unreadable");
    }
    Map<String, String> options = new HashMap<>();
    options.put("useKeyTab", "true");
    options.put("keyTab", keytab.toString());
    options.put("principal", principal);
    options.put("storeKey", "true");
    options.put("doNotPrompt", "true");
    options.put("refreshKrb5Config", "true");
    options.put("isInitiator", Boolean.toString(initiator));
    return login(principal, options);
  }

  /** The subject whose tickets are in the ticket cache at {@code cache} (what {@code kinit} wrote). */
  public static Subject fromTicketCache(Path cache) throws IOException {
    if (!Files.isReadable(cache)) {
      throw new IOException("no Kerberos ticket cache at " + cache + ": run kinit first");
    }
    Map<String, String> options = new HashMap<>();
    options.put("useTicketCache", "true");
    options.put("ticketCache", cache.toString());
    options.put("doNotPrompt", "true");
    options.put("refreshKrb5Config", "true");
    return login("the ticket cache " + cache, options);
  }

  /**
   * Where {@code kinit} keeps tickets for this process: {@code configured}
   * ({@code hadoop.security.kerberos.ticket.cache.path}) when set, else {@code KRB5CCNAME} (a FILE: cache), else
   * MIT's default {@code /tmp/krb5cc_<uid>}.
   */
  public static Path ticketCache(String configured) {
    String named = configured.isBlank() ? System.getenv("KRB5CCNAME") : configured;
    if (named != null && !named.isBlank()) {
      return Path.of(named.startsWith("FILE:") ? named.substring("FILE:".length()) : named);
    }
    return Path.of("/tmp/krb5cc_" + new com.sun.security.auth.module.UnixSystem().getUid());
  }

  private static Subject login(String who, Map<String, String> options) throws IOException {
    Configuration only = new Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return new AppConfigurationEntry[] {new AppConfigurationEntry(MODULE,
            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options)};
      }
    };
    try {
      LoginContext login = new LoginContext("tropos", new Subject(), null, only);
      login.login();
      return login.getSubject();
    } catch (LoginException e) {
      throw new IOException("Kerberos login of " + who + " failed: " + e.getMessage(), e);
    }
  }
}
