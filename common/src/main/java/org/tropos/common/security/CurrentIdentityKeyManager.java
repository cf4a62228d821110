package org.tropos.common.security;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Shows a daemon's identity as it is at each TLS handshake, so a renewed certificate is used by the next
 * connection without rebuilding servers or channels. It has one key, under one alias.
 */
final class CurrentIdentityKeyManager extends X509ExtendedKeyManager {
  private static final String ALIAS = "identity";
  private final Supplier<ServiceCertificates.Identity> identity;

  CurrentIdentityKeyManager(Supplier<ServiceCertificates.Identity> identity) {
    this.identity = identity;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return fits(keyType) ? new String[] {ALIAS} : null;
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return anyFits(keyTypes);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
    return anyFits(keyTypes);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return getClientAliases(keyType, issuers);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return fits(keyType) ? ALIAS : null;
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return fits(keyType) ? ALIAS : null;
  }

  private String anyFits(String[] keyTypes) {
    for (String keyType : keyTypes) {
      if (fits(keyType)) {
        return ALIAS;
      }
    }
    return null;
  }

  /**
   * Whether the key can serve a handshake that asks for {@code keyType} ("RSA", "EC", "RSASSA-PSS", or TLS 1.2's
   * "EC_RSA" style names): offering an RSA key where an EC one is asked for would fail the handshake.
   */
  private boolean fits(String keyType) {
    if (keyType == null) {
      return true;
    }
    String algorithm = identity.get().key().getAlgorithm();
    return keyType.equals(algorithm) || keyType.startsWith(algorithm + "_")
        || algorithm.equals("RSA") && keyType.equals("RSASSA-PSS");
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return ALIAS.equals(alias) ? identity.get().chain().toArray(new X509Certificate[0]) : null;
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return ALIAS.equals(alias) ? identity.get().key() : null;
  }
}
