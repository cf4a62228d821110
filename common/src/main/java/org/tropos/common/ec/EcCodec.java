package org.tropos.common.ec;

import java.util.Locale;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawEncoder;

/**
 * The erasure codes Tropos writes, by their names in a replication config, and the coders for them: Reed-Solomon on
 * ISA-L where the system has it ({@link IsaL}; direct buffers), Hadoop's pure Java raw coders otherwise (heap
 * arrays). Both produce the same bytes, so a stripe written with one is read with the other.
 */
public enum EcCodec {
  /** Reed-Solomon, any number of parity units: Hadoop's "rs" (ISA-L compatible), not "rs-legacy". */
  RS,
  /** One parity unit, the XOR of the data units. */
  XOR;

  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static EcCodec fromConfigName(String name) {
    for (EcCodec codec : values()) {
      if (codec.configName().equalsIgnoreCase(name)) {
        return codec;
      }
    }
    throw new IllegalArgumentException("unknown erasure codec \"" + name + "\" (rs or xor)");
  }

  CellCoder newCoder(int data, int parity) {
    ErasureCoderOptions options = new ErasureCoderOptions(data, parity);
    return switch (this) {
      case RS -> IsaL.available() ? new IsalCellCoder(data, parity)
          : new HadoopCellCoder(new RSRawEncoder(options), new RSRawDecoder(options));
      case XOR -> new HadoopCellCoder(new XORRawEncoder(options), new XORRawDecoder(options));
    };
  }
}
