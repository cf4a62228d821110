package org.tropos.common.security;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/**
 * Certificates, key pairs and signing requests as PEM text and files, the form operators and OpenSSL read. A
 * private key's file is made readable by its owner alone before anything is written to it.
 */
public final class PemFiles {
  private PemFiles() {
  }

  public static String toPem(Object value) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(value);
    } catch (IOException e) {
      throw new IllegalStateException("writing PEM to a string", e);
    }
    return text.toString();
  }

  /** Every certificate in {@code pem}, in order (a chain or a bundle). */
  public static List<X509Certificate> certificates(String pem) throws IOException {
    List<X509Certificate> certificates = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object value = parser.readObject(); value != null; value = parser.readObject()) {
        if (value instanceof X509CertificateHolder holder) {
          certificates.add(new JcaX509CertificateConverter().getCertificate(holder));
        }
      }
    } catch (CertificateException e) {
      throw new IOException("a certificate in the PEM text does not parse: " + e.getMessage(), e);
    }
    return certificates;
  }

  public static X509Certificate certificate(String pem) throws IOException {
    List<X509Certificate> all = certificates(pem);
    if (all.isEmpty()) {
      throw new IOException("no certificate in the PEM text");
    }
    return all.get(0);
  }

  public static PKCS10CertificationRequest request(String pem) throws IOException {
    Object value = single(new StringReader(pem));
    if (!(value instanceof PKCS10CertificationRequest request)) {
      throw new IOException("not a PEM certificate signing request");
    }
    return request;
  }

  /** The private key in {@code file}: PKCS#8 ({@code PRIVATE KEY}) or OpenSSL's traditional form. */
  public static PrivateKey privateKey(Path file) throws IOException {
    return privateKey(Files.readString(file, StandardCharsets.US_ASCII)).orElseThrow(() ->
        new IOException(file + " holds no unencrypted PEM private key"));
  }

  /** The first unencrypted private key in {@code pem}, if any (beside certificates, say). */
  public static Optional<PrivateKey> privateKey(String pem) throws IOException {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object value = parser.readObject(); value != null; value = parser.readObject()) {
        if (value instanceof PEMKeyPair pair) {
          return Optional.of(converter.getKeyPair(pair).getPrivate());
        }
        if (value instanceof PrivateKeyInfo info) {
          return Optional.of(converter.getPrivateKey(info));
        }
      }
    }
    return Optional.empty();
  }

  private static Object single(StringReader reader) throws IOException {
    try (PEMParser parser = new PEMParser(reader)) {
      return parser.readObject();
    }
  }

  public static void writeCertificates(Path file, List<X509Certificate> chain) throws IOException {
    StringBuilder text = new StringBuilder();
    chain.forEach(c -> text.append(toPem(c)));
    Files.writeString(file, text, StandardCharsets.US_ASCII);
  }

  /** Writes {@code text} to a new file that only its owner may read (created so before anything is in it). */
  public static void writeOwnerOnly(Path file, String text) throws IOException {
    writeOwnerOnly(file, text.getBytes(StandardCharsets.US_ASCII));
  }

  /** Writes {@code bytes} to a new file that only its owner may read (created so before anything is in it). */
  public static void writeOwnerOnly(Path file, byte[] bytes) throws IOException {
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.write(file, bytes, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
  }
}
