package org.tropos.client.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.tropos.client.internal.KeyOutputStream;

/**
 * A file being written through the FileSystem: {@link #hsync} (and {@link #hflush}, which is the same here)
 * makes what was written durable on every replica and visible to readers with its length; {@link #close}
 * commits the whole file.
 */
final class TroposOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  private final KeyOutputStream key;

  TroposOutputStream(KeyOutputStream key) {
    this.key = key;
  }

  @Override
  public void write(int b) throws IOException {
    key.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    key.write(b, off, len);
  }

  @Override
  public void hflush() throws IOException {
    key.hsync();
  }

  @Override
  public void hsync() throws IOException {
    key.hsync();
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.HFLUSH.equalsIgnoreCase(capability)
        || StreamCapabilities.HSYNC.equalsIgnoreCase(capability);
  }

  @Override
  public void close() throws IOException {
    key.close();
  }
}
