package org.tropos.common.http;

import java.util.Locale;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;

/**
 * Which listeners the daemons' status ports open ({@code ozone.http.policy}, Ozone's key): plain HTTP, HTTPS with
 * the daemon's certificate, or both. HTTPS needs a secure cluster; a secure cluster opens both unless told.
 */
public enum HttpPolicy {
  HTTP_ONLY, HTTPS_ONLY, HTTP_AND_HTTPS;

  public static HttpPolicy of(Configuration conf) {
    boolean secure = conf.get(SecurityKeys.SECURITY_ENABLED);
    String named = conf.get(CommonKeys.HTTP_POLICY).strip().toUpperCase(Locale.ROOT);
    if (named.isEmpty()) {
      return secure ? HTTP_AND_HTTPS : HTTP_ONLY;
    }
    HttpPolicy policy = valueOf(named);
    if (policy != HTTP_ONLY && !secure) {
      throw new ConfigException(CommonKeys.HTTP_POLICY.name() + " is " + policy + ": HTTPS needs "
          + SecurityKeys.SECURITY_ENABLED.name() + " (the daemons' certificates)");
    }
    return policy;
  }

  public boolean http() {
    return this != HTTPS_ONLY;
  }

  public boolean https() {
    return this != HTTP_ONLY;
  }
}
