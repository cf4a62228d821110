package org.tropos.client.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.tropos.client.KeyOutputStream;

/**
 * A file being written through the FileSystem: {@link #hsync} (and {@link #hflush}, which is the same here)
 * makes what was written durable on every replica and visible to readers with its length; {@link #close}
 * commits the whole file.
 */
final class TroposOutputStream extends OutputStream implements Syncable, StreamCapabilities, IOStatisticsSource {
  private final KeyOutputStream key;
  private final IOStatisticsStore statistics = IOStatisticsBinding.iostatisticsStore().withCounters(
      StreamStatisticNames.STREAM_WRITE_BYTES, StreamStatisticNames.STREAM_WRITE_EXCEPTIONS,
      StoreStatisticNames.OP_HFLUSH, StoreStatisticNames.OP_HSYNC).build();

  TroposOutputStream(KeyOutputStream key) {
    this.key = key;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      key.write(b, off, len);
    } catch (IOException e) {
      statistics.incrementCounter(StreamStatisticNames.STREAM_WRITE_EXCEPTIONS);
      throw e;
    }
    statistics.incrementCounter(StreamStatisticNames.STREAM_WRITE_BYTES, len);
  }

  @Override
  public void hflush() throws IOException {
    statistics.incrementCounter(StoreStatisticNames.OP_HFLUSH);
    key.hsync();
  }

  @Override
  public void hsync() throws IOException {
    statistics.incrementCounter(StoreStatisticNames.OP_HSYNC);
    key.hsync();
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.HFLUSH.equalsIgnoreCase(capability)
        || StreamCapabilities.HSYNC.equalsIgnoreCase(capability)
        || StreamCapabilities.IOSTATISTICS.equalsIgnoreCase(capability);
  }

  @Override
  public IOStatistics getIOStatistics() {
    return statistics;
  }

  @Override
  public void close() throws IOException {
    key.close();
  }
}
