package org.tropos.s3.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SigV4 signing keys by secret and scope, derived once per day, region and service rather than for each request
 * (four HMACs), as AWS's own SDKs do. Bounded: a scope a client makes up cannot grow it past
 * {@value #MOST}; at that size it starts again empty.
 *
 * <p>Thread-safe. The keys handed out are shared and must not be changed.
 */
final class SigningKeys {
  private static final int MOST = 1024;

  private record Scope(String secret, String date, String region, String service) {
  }

  private final Map<Scope, byte[]> keys = new ConcurrentHashMap<>();

  byte[] of(String secret, String date, String region, String service) {
    Scope scope = new Scope(secret, date, region, service);
    byte[] key = keys.get(scope);
    if (key == null) {
      if (keys.size() >= MOST) {
        keys.clear();
      }
      key = SigV4.signingKey(secret, date, region, service);
      keys.put(scope, key);
    }
    return key;
  }
}
