package org.tropos.common.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmAddresses;

/**
 * Whether a daemon runs secure ({@code ozone.security.enabled}), where it keeps its key and certificate, and how
 * they are made.
 *
 * @param enabled whether the daemon holds a certificate of the cluster's CA and speaks mutual TLS
 * @param dir the daemon's security directory (its {@code identity.pem}; SCM's CA files)
 * @param x509 how keys and certificates are made and renewed
 * @param scm SCM's client service, on each SCM of an HA service, where certificates are renewed and block-token
 *     keys fetched (empty when security is off)
 * @param blockTokens how long block tokens and their keys last
 * @param suppliedCa an operator's CA for SCM to use instead of making its own ({@code hdds.x509.rootca.*})
 */
public record SecuritySettings(boolean enabled, Path dir, X509Settings x509, List<HostPort> scm,
    BlockTokenSettings blockTokens, Optional<CaFiles> suppliedCa) {
  public SecuritySettings {
    scm = List.copyOf(scm);
  }

  /** An operator's CA certificate and its private key, PEM files. */
  public record CaFiles(Path certificate, Path privateKey) {
  }

  public static SecuritySettings from(Configuration conf, Path dir) {
    boolean enabled = conf.get(SecurityKeys.SECURITY_ENABLED);
    return new SecuritySettings(enabled, dir, X509Settings.from(conf),
        enabled ? ScmAddresses.clientServices(conf) : List.of(), BlockTokenSettings.from(conf), suppliedCa(conf));
  }

  private static Optional<CaFiles> suppliedCa(Configuration conf) {
    String certificate = conf.get(SecurityKeys.ROOT_CA_CERTIFICATE);
    String key = conf.get(SecurityKeys.ROOT_CA_PRIVATE_KEY);
    if (certificate.isBlank() && key.isBlank()) {
      return Optional.empty();
    }
    if (certificate.isBlank() || key.isBlank()) {
      throw new ConfigException("set both " + SecurityKeys.ROOT_CA_CERTIFICATE.name() + " and "
          + SecurityKeys.ROOT_CA_PRIVATE_KEY.name() + ", or neither");
    }
    return Optional.of(new CaFiles(Path.of(certificate), Path.of(key)));
  }

  /**
   * How a user's client reaches the cluster: plaintext when it is not secure; else mutual TLS as the user whose
   * certificate is in {@code tropos.security.identity.file}, or without one TLS trusting the CA certificate in
   * {@code tropos.security.ca.file}, proving the user with the Kerberos tickets of the ticket cache when
   * {@code hadoop.security.authentication} is kerberos.
   */
  public static TransportSecurity userTransport(Configuration conf) throws IOException {
    if (!conf.get(SecurityKeys.SECURITY_ENABLED)) {
      return TransportSecurity.plaintext();
    }
    String identityFile = conf.get(SecurityKeys.IDENTITY_FILE);
    if (!identityFile.isBlank()) {
      try {
        return TransportSecurity.mutual(ServiceCertificates.ofFile(Path.of(identityFile), X509Settings.from(conf)));
      } catch (GeneralSecurityException e) {
        throw new IOException(SecurityKeys.IDENTITY_FILE.name() + " " + identityFile + ": " + e.getMessage(), e);
      }
    }
    if (conf.get(SecurityKeys.AUTHENTICATION).equals("kerberos")) {
      return TransportSecurity.trusting(clusterRoot(conf), new KerberosCredential(KerberosLogin.fromTicketCache(
          KerberosLogin.ticketCache(conf.get(SecurityKeys.TICKET_CACHE))), kerberosPrincipals(conf)));
    }
    return TransportSecurity.trusting(clusterRoot(conf));
  }

  /** The CA certificate a user's client trusts ({@code tropos.security.ca.file}). */
  public static X509Certificate clusterRoot(Configuration conf) throws IOException {
    String caFile = conf.get(SecurityKeys.CA_FILE);
    if (caFile.isBlank()) {
      throw new ConfigException(SecurityKeys.SECURITY_ENABLED.name() + " is true: set "
          + SecurityKeys.IDENTITY_FILE.name() + " to your certificate (tropos admin cert issue), or "
          + SecurityKeys.CA_FILE.name() + " to the cluster's CA certificate (ca.crt in SCM's scm-security"
          + " directory)");
    }
    try {
      return PemFiles.certificate(Files.readString(Path.of(caFile), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new IOException(SecurityKeys.CA_FILE.name() + " " + caFile + ": " + e.getMessage(), e);
    }
  }

  /** The Kerberos principals of the servers a user's client calls, by role, as {@code conf} names them. */
  public static Map<ServiceRole, String> kerberosPrincipals(Configuration conf) {
    Map<ServiceRole, String> principals = new EnumMap<>(ServiceRole.class);
    principals.put(ServiceRole.OM, conf.get(SecurityKeys.OM_KERBEROS_PRINCIPAL));
    principals.put(ServiceRole.SCM, conf.get(SecurityKeys.SCM_KERBEROS_PRINCIPAL));
    principals.values().removeIf(String::isBlank);
    if (principals.isEmpty()) {
      throw new ConfigException(SecurityKeys.AUTHENTICATION.name() + " is kerberos: set "
          + SecurityKeys.OM_KERBEROS_PRINCIPAL.name() + " (and " + SecurityKeys.SCM_KERBEROS_PRINCIPAL.name()
          + ") to the servers' principals");
    }
    return principals;
  }

  /**
   * How daemon {@code role} on {@code host} protects its connections: plaintext when the cluster is not secure,
   * else mutual TLS under the identity kept in {@link #dir}, which {@code issuer} signs at its first start.
   */
  public TransportSecurity transport(ServiceRole role, String host, CertificateIssuer issuer) throws IOException {
    if (!enabled) {
      return TransportSecurity.plaintext();
    }
    try {
      return TransportSecurity.mutual(ServiceCertificates.join(dir, role, host, x509, issuer));
    } catch (GeneralSecurityException e) {
      throw new IOException("the " + role.subjectName() + "'s key and certificate in " + dir + " cannot be made"
          + " or read: " + e.getMessage(), e);
    }
  }
}
