package org.tropos.s3.ops;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.S3GatewayKeys;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.EcReplicationConfig;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * The S3 storage classes a write may ask for ({@code x-amz-storage-class}) and how each is stored, as
 * {@code ozone.s3g.storage.classes} configures them: STANDARD is the bucket's own replication; a class configured
 * stands for a replication (e.g. STANDARD_IA for {@code EC/rs-6-3-1024k}); any other class S3 knows is
 * NotImplemented, so that nothing is stored otherwise than asked. A key is shown with the first class configured for
 * its replication, else as STANDARD.
 */
public final class StorageClasses {
  static final String HEADER = "x-amz-storage-class";
  static final String STANDARD = "STANDARD";
  private static final Set<String> S3_CLASSES = Set.of(STANDARD, "REDUCED_REDUNDANCY", "STANDARD_IA", "ONEZONE_IA",
      "INTELLIGENT_TIERING", "GLACIER", "DEEP_ARCHIVE", "OUTPOSTS", "GLACIER_IR", "SNOW", "EXPRESS_ONEZONE");

  /** A replication: erasure-coded when {@code ec} is set, else {@code factor} replicas. */
  private record Replication(ReplicationFactor factor, EcReplicationConfig ec) {
    static Replication of(ReplicationFactor factor, boolean hasEc, EcReplicationConfig ec) {
      return hasEc ? new Replication(ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED, ec)
          : new Replication(factor, null);
    }

    static Replication of(KeyInfo key) {
      return of(key.getFactor(), key.hasEc(), key.getEc());
    }

    static Replication parse(String text) {
      String upper = text.toUpperCase(Locale.ROOT);
      if (upper.startsWith("EC/")) {
        return new Replication(ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED,
            EcReplication.parse(text.substring(3)).toProto());
      }
      return switch (upper) {
        case "RATIS/ONE", "RATIS/1" -> new Replication(ReplicationFactor.ONE, null);
        case "RATIS/THREE", "RATIS/3" -> new Replication(ReplicationFactor.THREE, null);
        default -> throw new IllegalArgumentException("not RATIS/ONE, RATIS/THREE or EC/<config>: " + text);
      };
    }
  }

  private final Map<String, Replication> classes;

  private StorageClasses(Map<String, Replication> classes) {
    this.classes = classes;
  }

  /** No class but STANDARD. */
  public static StorageClasses standardOnly() {
    return new StorageClasses(Map.of());
  }

  /** The classes of {@code CLASS=REPLICATION} entries; a bad one fails naming the key. */
  public static StorageClasses parse(List<String> entries) {
    Map<String, Replication> classes = new LinkedHashMap<>();
    for (String entry : entries) {
      int eq = entry.indexOf('=');
      String name = eq < 0 ? entry : entry.substring(0, eq).strip();
      try {
        if (eq < 0 || !S3_CLASSES.contains(name) || name.equals(STANDARD)) {
          throw new IllegalArgumentException("not CLASS=REPLICATION with CLASS one of S3's storage classes other"
              + " than STANDARD (the bucket's replication)");
        }
        if (classes.put(name, Replication.parse(entry.substring(eq + 1).strip())) != null) {
          throw new IllegalArgumentException("named twice");
        }
      } catch (IllegalArgumentException e) {
        throw new ConfigException(S3GatewayKeys.STORAGE_CLASSES.name() + ": " + entry + ": " + e.getMessage());
      }
    }
    return new StorageClasses(Collections.unmodifiableMap(classes)); // in the order given: the first shows a key
  }

  /** Sets on {@code open} how the class a write asks for ({@code header}: null for none) is stored. */
  void apply(String header, OpenKeyRequest.Builder open) throws S3Error {
    apply(header, open::setEc, open::setFactor);
  }

  /** Sets on {@code initiate} how the class an upload asks for ({@code header}: null for none) is stored. */
  void apply(String header, InitiateMultipartUploadRequest.Builder initiate) throws S3Error {
    apply(header, initiate::setEc, initiate::setFactor);
  }

  private void apply(String header, Consumer<EcReplicationConfig> setEc, Consumer<ReplicationFactor> setFactor)
      throws S3Error {
    Replication asked = asked(header);
    if (asked != null && asked.ec() != null) {
      setEc.accept(asked.ec());
    } else if (asked != null) {
      setFactor.accept(asked.factor());
    }
  }

  /** Refuses a class that is neither STANDARD nor configured, before anything is stored. */
  void check(String header) throws S3Error {
    asked(header);
  }

  /** Whether a key must be written anew to be stored as the class asked for ({@code header}: null for none). */
  boolean changes(String header, KeyInfo key) throws S3Error {
    Replication asked = asked(header);
    return asked != null && !asked.equals(Replication.of(key));
  }

  /** The class {@code key} is shown with: the first configured for its replication, else STANDARD. */
  String of(KeyInfo key) {
    return of(Replication.of(key));
  }

  /** The class of what is stored as {@code factor}, or erasure-coded as {@code ec} when {@code hasEc}. */
  String of(ReplicationFactor factor, boolean hasEc, EcReplicationConfig ec) {
    return of(Replication.of(factor, hasEc, ec));
  }

  private String of(Replication stored) {
    return classes.entrySet().stream().filter(e -> e.getValue().equals(stored)).map(Map.Entry::getKey).findFirst()
        .orElse(STANDARD);
  }

  /** The replication the class {@code header} names; null for STANDARD or none (the bucket's). */
  private Replication asked(String header) throws S3Error {
    if (header == null || header.strip().equals(STANDARD)) {
      return null;
    }
    String name = header.strip();
    Replication replication = classes.get(name);
    if (replication != null) {
      return replication;
    }
    throw S3_CLASSES.contains(name) ? S3ErrorCode.NOT_IMPLEMENTED.error("Storage class " + S3Error.quote(header)
        + " is not configured here (" + S3GatewayKeys.STORAGE_CLASSES.name() + "): only STANDARD"
        + (classes.isEmpty() ? "" : ", " + String.join(", ", classes.keySet())))
        : S3ErrorCode.INVALID_STORAGE_CLASS.error();
  }
}
