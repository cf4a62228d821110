package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Keys of the cluster's certificate authority and the certificates it issues (Ozone's names). */
public final class SecurityKeys {
  public static final ConfigKey<Boolean> SECURITY_ENABLED = ConfigKey.of("ozone.security.enabled",
      ConfigType.BOOLEAN, "false", "Whether the daemons hold certificates of the cluster's CA (SCM) and speak mutual"
          + " TLS on their gRPC ports, admitting only peers of the right role. Set it on every daemon and client of"
          + " the cluster alike.");

  public static final ConfigKey<String> CA_FILE = ConfigKey.of("tropos.security.ca.file", ConfigType.STRING, "",
      "A client's copy of the cluster's CA certificate (ca.crt, which SCM writes to scm-security beside its"
          + " database): with ozone.security.enabled, clients trust only servers whose certificates it signed.");

  public static final ConfigKey<String> IDENTITY_FILE = ConfigKey.of("tropos.security.identity.file",
      ConfigType.STRING, "", "A user's key and certificate (the PEM file `tropos admin cert issue --user U` writes):"
          + " with ozone.security.enabled, the user's clients authenticate as U with it. Without one a client is"
          + " nobody to the servers.");

  public static final ConfigKey<String> ROOT_CA_CERTIFICATE = ConfigKey.of("hdds.x509.rootca.certificate.file",
      ConfigType.STRING, "", "An operator's CA certificate (PEM) for SCM to sign the cluster's certificates with,"
          + " instead of making its own root at its first start; with hdds.x509.rootca.private.key.file. Read once,"
          + " when the cluster's CA is made.");

  public static final ConfigKey<String> ROOT_CA_PRIVATE_KEY = ConfigKey.of("hdds.x509.rootca.private.key.file",
      ConfigType.STRING, "", "The private key (PEM, readable by SCM only) of hdds.x509.rootca.certificate.file.");

  public static final ConfigKey<String> KEY_ALGORITHM = ConfigKey.of("hdds.key.algo", ConfigType.STRING, "RSA",
      "The algorithm of every key pair a daemon or the CA makes: RSA or EC.")
      .requiring(a -> a.equals("RSA") || a.equals("EC"), "RSA or EC");

  public static final ConfigKey<Integer> KEY_LENGTH = ConfigKey.of("hdds.key.len", ConfigType.INT, "2048",
      "Bits of an RSA key (2048 to 8192), or of an EC key's curve (256 or 384).")
      .requiring(n -> n == 256 || n == 384 || (n >= 2048 && n <= 8192), "2048 to 8192 (RSA), 256 or 384 (EC)");

  public static final ConfigKey<String> SIGNATURE_ALGORITHM = ConfigKey.of("hdds.x509.signature.algorithm",
      ConfigType.STRING, "SHA256withRSA", "How the CA signs certificates: a JCA name such as SHA256withRSA or"
          + " SHA256withECDSA, matching hdds.key.algo.");

  public static final ConfigKey<Duration> DEFAULT_DURATION = ConfigKey.of("hdds.x509.default.duration",
      ConfigType.duration(ChronoUnit.MILLIS), "P365D", "How long a certificate the CA issues is valid.")
      .requiring(d -> d.compareTo(Duration.ofMinutes(1)) >= 0, "at least a minute");

  public static final ConfigKey<Duration> MAX_DURATION = ConfigKey.of("hdds.x509.max.duration",
      ConfigType.duration(ChronoUnit.MILLIS), "P1865D", "How long the CA's own certificate is valid; no certificate"
          + " it issues outlives it.")
      .requiring(d -> d.compareTo(Duration.ofMinutes(1)) >= 0, "at least a minute");

  public static final ConfigKey<Duration> RENEW_GRACE_DURATION = ConfigKey.of("hdds.x509.renew.grace.duration",
      ConfigType.duration(ChronoUnit.MILLIS), "P28D", "A daemon renews its certificate this long before it"
          + " expires.");

  public static final ConfigKey<Duration> BLOCK_TOKEN_EXPIRY = ConfigKey.of("hdds.block.token.expiry.time",
      ConfigType.duration(ChronoUnit.MILLIS), "P1D", "How long a block token the OM hands out with a block's"
          + " location lets its bearer read or write the block on the datanodes.")
      .requiring(d -> d.compareTo(Duration.ofSeconds(1)) >= 0, "at least a second");

  public static final ConfigKey<Duration> SECRET_KEY_ROTATE = ConfigKey.of("hdds.secret.key.rotate.duration",
      ConfigType.duration(ChronoUnit.MILLIS), "P1D", "How often SCM makes a new secret key to sign block tokens"
          + " with.")
      .requiring(d -> d.compareTo(Duration.ofSeconds(1)) >= 0, "at least a second");

  public static final ConfigKey<Duration> SECRET_KEY_EXPIRY = ConfigKey.of("hdds.secret.key.expiry.duration",
      ConfigType.duration(ChronoUnit.MILLIS), "P9D", "How long a secret key verifies block tokens: at least"
          + " hdds.secret.key.rotate.duration plus hdds.block.token.expiry.time, so every token outlives nothing"
          + " of its key.");

  public static final ConfigKey<Duration> SECRET_KEY_ROTATE_CHECK = ConfigKey.of(
      "hdds.secret.key.rotate.check.duration", ConfigType.duration(ChronoUnit.MILLIS), "PT10M", "How often SCM"
          + " checks whether a new secret key is due, and OMs and datanodes fetch the keys again.")
      .requiring(d -> d.compareTo(Duration.ofMillis(100)) >= 0, "at least 100 ms");

  public static final ConfigKey<String> AUTHENTICATION = ConfigKey.of("hadoop.security.authentication",
      ConfigType.STRING, "simple", "How a user's client proves its user in a secure cluster when it has no"
          + " certificate (tropos.security.identity.file): kerberos sends a ticket for the server's principal with"
          + " each call (from the ticket cache kinit fills, or the login of the Hadoop program); simple proves"
          + " nothing.")
      .requiring(a -> a.equals("simple") || a.equals("kerberos"), "simple or kerberos");

  public static final ConfigKey<String> TICKET_CACHE = ConfigKey.of("hadoop.security.kerberos.ticket.cache.path",
      ConfigType.STRING, "", "The Kerberos ticket cache a user's client reads (hadoop.security.authentication"
          + " kerberos); default: KRB5CCNAME, else /tmp/krb5cc_<uid>, where kinit writes.");

  public static final ConfigKey<String> OM_KERBEROS_PRINCIPAL = ConfigKey.of("ozone.om.kerberos.principal",
      ConfigType.STRING, "", "The OM's Kerberos principal, e.g. om/_HOST@EXAMPLE.COM (_HOST: the OM's host). Set on"
          + " the OM with ozone.om.kerberos.keytab.file, it accepts users' Kerberos tickets and is the OM's own"
          + " login to a Kerberos-only KMS (SPNEGO); set on a client, the"
          + " client asks the KDC for tickets to it.");

  public static final ConfigKey<String> OM_KERBEROS_KEYTAB = ConfigKey.of("ozone.om.kerberos.keytab.file",
      ConfigType.STRING, "", "The keytab holding the key of ozone.om.kerberos.principal, readable by the OM only.");

  public static final ConfigKey<String> SCM_KERBEROS_PRINCIPAL = ConfigKey.of("hdds.scm.kerberos.principal",
      ConfigType.STRING, "", "SCM's Kerberos principal, e.g. scm/_HOST@EXAMPLE.COM: as ozone.om.kerberos.principal,"
          + " for SCM's client port (administration).");

  public static final ConfigKey<String> SCM_KERBEROS_KEYTAB = ConfigKey.of("hdds.scm.kerberos.keytab.file",
      ConfigType.STRING, "", "The keytab holding the key of hdds.scm.kerberos.principal, readable by SCM only.");

  public static final ConfigKey<Duration> TOKEN_RENEW_INTERVAL = ConfigKey.of(
      "ozone.manager.delegation.token.renew-interval", ConfigType.duration(ChronoUnit.MILLIS), "P1D", "How long a"
          + " delegation token the OM issues proves its owner before its renewer must renew it (each renewal"
          + " grants this long again, up to ozone.manager.delegation.token.max-lifetime).")
      .requiring(d -> d.compareTo(Duration.ofSeconds(1)) >= 0, "at least a second");

  public static final ConfigKey<Duration> TOKEN_MAX_LIFETIME = ConfigKey.of(
      "ozone.manager.delegation.token.max-lifetime", ConfigType.duration(ChronoUnit.MILLIS), "P7D", "How long a"
          + " delegation token lasts at most, however often it is renewed; no longer than the secret key that signs"
          + " it (hdds.secret.key.expiry.duration less hdds.secret.key.rotate.duration).")
      .requiring(d -> d.compareTo(Duration.ofSeconds(1)) >= 0, "at least a second");

  private SecurityKeys() {
  }
}
