package org.tropos.scm.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.ServiceRole;

/**
 * What SCM writes to its security directory for operators ({@link ScmCertificateAuthority}): the bootstrap secret
 * (reading it is what makes one an administrator there) and the CA's certificate; tokens are minted from them.
 */
public record ScmSecurityFiles(BootstrapTokens tokens, X509Certificate ca) {
  /** The files of SCM's security directory {@code dir}. */
  public static ScmSecurityFiles read(Path dir) throws IOException {
    byte[] secret = HexFormat.of().parseHex(Files.readString(dir.resolve(ScmCertificateAuthority.SECRET_FILE))
        .strip());
    return new ScmSecurityFiles(new BootstrapTokens(secret), PemFiles.certificate(Files.readString(
        dir.resolve(ScmCertificateAuthority.CA_FILE))));
  }

  /** A one-time token for the first certificate of a daemon of {@code role}, usable until {@code expiry}. */
  public String mint(ServiceRole role, Instant expiry) throws IOException {
    try {
      return tokens.mint(role, expiry, ca);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot mint a token: " + e.getMessage(), e);
    }
  }
}
