package org.tropos.s3.io;

import java.io.IOException;
import java.io.InputStream;

/**
 * An input stream that reads in bulk only: its single-byte {@link #read()} is one bulk read of one byte. The
 * gateway's body streams (aws-chunked decoding, the connection's body pipe, form parts) all work that way.
 */
public abstract class BulkInputStream extends InputStream {
  @Override
  public final int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public abstract int read(byte[] into, int offset, int length) throws IOException;
}
