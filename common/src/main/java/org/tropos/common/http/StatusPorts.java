package org.tropos.common.http;

import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;

/**
 * Where a daemon's status port listens: over HTTP, over HTTPS (a secure cluster), or both, as
 * {@code ozone.http.policy} says ({@link HttpPolicy}).
 *
 * @param http the HTTP address (its key, e.g. {@code ozone.om.http-address})
 * @param https the HTTPS address (e.g. {@code ozone.om.https-address})
 */
public record StatusPorts(HostPort http, HostPort https, HttpPolicy policy) {
  /** The addresses {@code httpKey} and {@code httpsKey} set (else their default ports), under the policy. */
  public static StatusPorts of(Configuration conf, ConfigKey<String> httpKey, int httpPort, ConfigKey<String> httpsKey,
      int httpsPort) {
    return new StatusPorts(HostPort.parse(conf.get(httpKey), httpPort, httpKey.name()),
        HostPort.parse(conf.get(httpsKey), httpsPort, httpsKey.name()), HttpPolicy.of(conf));
  }
}
