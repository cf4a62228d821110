package org.tropos.scm.security;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.security.BlockTokenSettings;
import org.tropos.common.security.SecretKey;
import org.tropos.common.util.Clock;
import org.tropos.proto.scm.GetSecretKeysResponse;
import org.tropos.scm.db.ScmDb;

/**
 * The secret keys that sign block tokens (Ozone's HDDS-7831), made by the serving SCM: a new one every rotation
 * period, each kept until it expires. They are one row of SCM's database, so under HA every SCM holds them and a
 * new leader goes on with the same keys (a key made twice by two leaders would only be one more valid key).
 */
public final class ScmSecretKeys {
  private static final Logger LOG = LoggerFactory.getLogger(ScmSecretKeys.class);
  static final String KEYS = "secret.keys";

  private final ScmDb db;
  private final BlockTokenSettings settings;
  private final Clock clock;

  public ScmSecretKeys(ScmDb db, BlockTokenSettings settings, Clock clock) {
    this.db = db;
    this.settings = settings;
    this.clock = clock;
  }

  /** Makes a new key when none is younger than the rotation period, and forgets the expired ones. */
  public synchronized void rotateIfDue() throws IOException {
    Instant now = clock.wallTime();
    List<SecretKey> stored = stored();
    List<SecretKey> kept = new ArrayList<>(stored.stream().filter(k -> !k.expiredAt(now)).toList());
    boolean due = kept.isEmpty() || !kept.get(0).created().plus(settings.rotateEvery()).isAfter(now);
    if (due) {
      SecretKey made = SecretKey.generate(now, settings.keyLifetime());
      kept.add(0, made);
      LOG.info("Made block-token key {}", made);
    }
    if (due || kept.size() != stored.size()) {
      GetSecretKeysResponse.Builder row = GetSecretKeysResponse.newBuilder();
      kept.forEach(k -> row.addKeys(k.toProto()));
      db.putMeta(KEYS, Base64.getEncoder().encodeToString(row.build().toByteArray()));
    }
  }

  /** Every key not expired, the newest first. */
  public List<SecretKey> valid() throws IOException {
    Instant now = clock.wallTime();
    return stored().stream().filter(k -> !k.expiredAt(now)).toList();
  }

  private List<SecretKey> stored() throws IOException {
    String row = db.meta(KEYS);
    if (row == null) {
      return List.of();
    }
    try {
      return GetSecretKeysResponse.parseFrom(Base64.getDecoder().decode(row)).getKeysList().stream()
          .map(SecretKey::of).toList();
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      throw new IOException("SCM's block-token keys (row " + KEYS + ") are unreadable: " + e.getMessage(), e);
    }
  }
}
