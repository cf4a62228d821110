package org.tropos.common.ec;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.io.erasurecode.rawcoder.RawErasureDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RawErasureEncoder;

/** Hadoop's pure Java raw coders, on heap buffers. */
final class HadoopCellCoder implements CellCoder {
  private final RawErasureEncoder encoder;
  private final RawErasureDecoder decoder;

  HadoopCellCoder(RawErasureEncoder encoder, RawErasureDecoder decoder) {
    this.encoder = encoder;
    this.decoder = decoder;
  }

  @Override
  public boolean wantsDirect() {
    return false;
  }

  @Override
  public void encode(ByteBuffer[] data, ByteBuffer[] parity) throws IOException {
    encoder.encode(data, parity);
  }

  @Override
  public void decode(ByteBuffer[] cells, int[] missing, ByteBuffer[] outputs) throws IOException {
    decoder.decode(cells, missing, outputs);
  }

  @Override
  public void close() {
    encoder.release();
    decoder.release();
  }
}
