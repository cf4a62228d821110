package org.tropos.om.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OmJournalTest {
  private static final long SEGMENT = 16 * 1024;

  @TempDir
  Path dir;

  private static byte[] record(int i) {
    return ("record " + i + " ".repeat(200)).getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> strings(List<byte[]> records) {
    return records.stream().map(r -> new String(r, StandardCharsets.UTF_8)).toList();
  }

  private static OmJournal openEmpty(Path dir, OmJournal.Checkpoint checkpoint) throws IOException {
    OmJournal journal = OmJournal.open(dir, SEGMENT, checkpoint);
    journal.records();
    journal.reset();
    return journal;
  }

  @Test
  void recordsComeBackInOrderAcrossRollOversAndOnlyAfterACheckpointIsASegmentReused() throws Exception {
    AtomicInteger checkpoints = new AtomicInteger();
    List<byte[]> appended = new ArrayList<>();
    try (OmJournal journal = openEmpty(dir, checkpoints::incrementAndGet)) {
      for (int i = 0; i < 300; i++) {
        appended.add(record(i));
        journal.append(appended.get(i));
      }
    }
    assertTrue(checkpoints.get() >= 3, "300 records of ~210 bytes fill several 16 KB segments");
    try (OmJournal journal = OmJournal.open(dir, SEGMENT, () -> { })) {
      List<String> back = strings(journal.records());
      List<String> all = strings(appended);
      assertFalse(back.isEmpty());
      assertEquals(all.subList(all.size() - back.size(), all.size()), back,
          "what the journal holds is the newest records, in append order");
      long perSegment = (SEGMENT - JournalSegment.HEADER_BYTES) / (JournalSegment.RECORD_OVERHEAD + record(0).length);
      assertTrue(back.size() > perSegment, "the older segment's records are kept until it is reused");
    }
  }

  @Test
  void aSegmentIsNotReusedWhileItsCheckpointRuns() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    try (OmJournal journal = openEmpty(dir, () -> {
      started.incrementAndGet();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    })) {
      CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
        try {
          for (int i = 0; i < 200; i++) {
            journal.append(record(i));
          }
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      });
      assertThrows(TimeoutException.class, () -> writer.get(300, TimeUnit.MILLISECONDS),
          "the second roll-over must wait for the first checkpoint");
      assertEquals(1, started.get());
      release.countDown();
      writer.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aTornLastRecordEndsTheJournalAndResetForgetsEverything() throws Exception {
    try (OmJournal journal = openEmpty(dir, () -> { })) {
      for (int i = 0; i < 10; i++) {
        journal.append(record(i));
      }
    }
    Path active = newestSegment();
    try (FileChannel channel = FileChannel.open(active, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long lastRecordMiddle = JournalSegment.HEADER_BYTES + 9L * (JournalSegment.RECORD_OVERHEAD
          + record(9).length) + JournalSegment.RECORD_OVERHEAD + 5;
      channel.write(ByteBuffer.wrap(new byte[] {'#'}), lastRecordMiddle);
    }
    try (OmJournal journal = OmJournal.open(dir, SEGMENT, () -> { })) {
      List<byte[]> back = journal.records();
      assertEquals(9, back.size());
      assertArrayEquals(record(8), back.get(8));
      journal.reset();
      journal.append(record(100));
    }
    try (OmJournal journal = OmJournal.open(dir, SEGMENT, () -> { })) {
      assertEquals(List.of(new String(record(100), StandardCharsets.UTF_8)), strings(journal.records()));
    }
  }

  @Test
  void aSegmentOfANewerFormatIsRefused() throws Exception {
    try (OmJournal journal = openEmpty(dir, () -> { })) {
      journal.append(record(0));
    }
    Path segment = newestSegment();
    ByteBuffer header = ByteBuffer.allocate(20);
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      channel.read(header, 0);
      header.putInt(4, JournalSegment.FORMAT + 1);
      java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
      crc.update(header.array(), 0, 16);
      header.putInt(16, (int) crc.getValue());
      channel.write(header.flip(), 0);
    }
    IOException e = assertThrows(IOException.class, () -> OmJournal.open(dir, SEGMENT, () -> { }));
    assertTrue(e.getMessage().contains("format"), e.getMessage());
  }

  @Test
  void aRecordLargerThanASegmentIsRefusedAndNothingIsWritten() throws Exception {
    try (OmJournal journal = openEmpty(dir, () -> { })) {
      assertThrows(IOException.class, () -> journal.append(new byte[(int) SEGMENT]));
      journal.append(record(1));
    }
    try (OmJournal journal = OmJournal.open(dir, SEGMENT, () -> { })) {
      assertEquals(1, journal.records().size());
    }
  }

  private Path newestSegment() throws IOException {
    try (var files = Files.list(dir)) {
      return files.max((a, b) -> Long.compare(generation(a), generation(b))).orElseThrow();
    }
  }

  private static long generation(Path segment) {
    try (JournalSegment s = JournalSegment.open(segment, SEGMENT)) {
      return s.generation();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
