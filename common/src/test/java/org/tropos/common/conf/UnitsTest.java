package org.tropos.common.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class UnitsTest {
  @Test
  void sizesAreBinaryAndCaseInsensitive() {
    assertEquals(256L << 20, DataSize.parse("256MB").bytes());
    assertEquals(5L << 30, DataSize.parse("5gb").bytes());
    assertEquals(16L << 10, DataSize.parse("16k").bytes());
    assertEquals(1536L << 20, DataSize.parse("1.5GB").bytes());
    assertEquals(42, DataSize.parse("42").bytes());
    assertThrows(IllegalArgumentException.class, () -> DataSize.parse("12 parsecs"));
    assertThrows(IllegalArgumentException.class, () -> DataSize.parse("-1MB"));
  }

  @Test
  void sizesFormatBackToWhatParses() {
    for (String s : new String[] {"256MB", "5GB", "16KB", "1000B", "0B"}) {
      assertEquals(s, DataSize.parse(s).toString());
    }
    assertEquals("1.5GB", DataSize.parse("1536MB").toHumanString());
  }

  @Test
  void durationsTakeUnits() {
    assertEquals(Duration.ofSeconds(30), Durations.parse("30s", ChronoUnit.MILLIS));
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms", ChronoUnit.MILLIS));
    assertEquals(Duration.ofMinutes(5), Durations.parse("5m", ChronoUnit.MILLIS));
    assertEquals(Duration.ofHours(1), Durations.parse("1H", ChronoUnit.MILLIS));
    assertEquals(Duration.ofDays(2), Durations.parse("2d", ChronoUnit.MILLIS));
    assertEquals(Duration.ofNanos(100_000), Durations.parse("100us", ChronoUnit.MILLIS));
    assertEquals(Duration.ofDays(365), Durations.parse("P365D", ChronoUnit.MILLIS));
    assertEquals(Duration.ofHours(12), Durations.parse("PT12H", ChronoUnit.MILLIS));
    assertThrows(IllegalArgumentException.class, () -> Durations.parse("P1Y", ChronoUnit.MILLIS));
    assertThrows(IllegalArgumentException.class, () -> Durations.parse("abc", ChronoUnit.MILLIS));
    assertThrows(IllegalArgumentException.class, () -> Durations.parse("3 fortnights", ChronoUnit.MILLIS));
  }

  @Test
  void durationsFormatBackToWhatParses() {
    for (String s : new String[] {"30s", "500ms", "5m", "1h", "2d", "1500ms", "0ms", "90s"}) {
      assertEquals(s, Durations.format(Durations.parse(s, ChronoUnit.MILLIS)));
    }
  }
}
