package org.tropos.scm.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.security.BlockTokenSettings;
import org.tropos.common.security.SecretKey;
import org.tropos.common.util.ManualClock;
import org.tropos.scm.db.ScmDb;

class ScmSecretKeysTest {
  private static final BlockTokenSettings SETTINGS = new BlockTokenSettings(Duration.ofHours(1), Duration.ofDays(1),
      Duration.ofDays(3), Duration.ofMinutes(10));

  private final ManualClock clock = new ManualClock();
  private ScmDb db;

  @TempDir
  Path dir;

  @BeforeEach
  void open() throws Exception {
    db = ScmDb.open(dir.resolve("scm.db"));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void aKeyIsMadeOncePerRotationAndForgottenWhenExpired() throws Exception {
    ScmSecretKeys keys = new ScmSecretKeys(db, SETTINGS, clock);
    keys.rotateIfDue();
    List<SecretKey> first = keys.valid();
    assertEquals(1, first.size());

    clock.advance(Duration.ofHours(23));
    keys.rotateIfDue();
    assertEquals(first, keys.valid(), "no new key before the rotation period");

    clock.advance(Duration.ofHours(1));
    keys.rotateIfDue();
    List<SecretKey> second = keys.valid();
    assertEquals(2, second.size());
    assertEquals(first.get(0), second.get(1), "the newest first, the older kept");
    assertTrue(second.get(0).created().isAfter(first.get(0).created()));

    clock.advance(Duration.ofDays(2));
    keys.rotateIfDue();
    List<SecretKey> third = keys.valid();
    assertFalse(third.contains(first.get(0)), "a key three days old has expired");
    assertEquals(2, third.size());
  }

  @Test
  void keysOutliveARestartOfScm() throws Exception {
    new ScmSecretKeys(db, SETTINGS, clock).rotateIfDue();
    List<SecretKey> before = new ScmSecretKeys(db, SETTINGS, clock).valid();
    db.close();
    db = ScmDb.open(dir.resolve("scm.db"));
    ScmSecretKeys reopened = new ScmSecretKeys(db, SETTINGS, clock);
    reopened.rotateIfDue();
    assertEquals(before, reopened.valid(), "the same key, not a new one");
  }
}
