package org.tropos.client.hadoop;

import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.tropos.client.KeyInputStream;

/**
 * A key opened through the FileSystem: seekable, positioned reads (FSInputStream's, seek and restore), every
 * byte verified by the key stream underneath. It reads the version of the key that was open when it was opened.
 */
final class TroposInputStream extends FSInputStream implements CanUnbuffer, StreamCapabilities,
    IOStatisticsSource {
  private final KeyInputStream key;
  private final IOStatisticsStore ioStatistics = IOStatisticsBinding.iostatisticsStore().withCounters(
      StreamStatisticNames.STREAM_READ_BYTES, StreamStatisticNames.STREAM_READ_OPERATIONS,
      StreamStatisticNames.STREAM_READ_EXCEPTIONS, StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS,
      StreamStatisticNames.STREAM_READ_UNBUFFERED).build();
  private final String path;
  private final FileSystem.Statistics statistics;
  private boolean closed;

  TroposInputStream(KeyInputStream key, String path, FileSystem.Statistics statistics) {
    this.key = key;
    this.path = path;
    this.statistics = statistics;
  }

  @Override
  public synchronized void seek(long pos) throws IOException {
    checkOpen();
    if (pos < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + pos + " in " + path);
    }
    if (pos > key.length()) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + pos + " in " + path + " of "
          + key.length() + " bytes");
    }
    ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS);
    key.seek(pos);
  }

  @Override
  public synchronized long getPos() {
    return key.position();
  }

  /** One replica holds all of a block: there is nothing else to switch to here (the key stream fails over). */
  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_OPERATIONS);
    int n;
    try {
      n = key.read(b, off, len);
    } catch (IOException e) {
      ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_EXCEPTIONS);
      throw e;
    }
    if (n > 0) {
      ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_BYTES, n);
      if (statistics != null) {
        statistics.incrementBytesRead(n);
      }
    }
    return n;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, key.length() - key.position());
  }

  @Override
  public synchronized void unbuffer() {
    ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_UNBUFFERED);
    key.unbuffer();
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.UNBUFFER.equalsIgnoreCase(capability)
        || StreamCapabilities.IOSTATISTICS.equalsIgnoreCase(capability);
  }

  @Override
  public IOStatistics getIOStatistics() {
    return ioStatistics;
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      key.close();
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
    }
  }
}
