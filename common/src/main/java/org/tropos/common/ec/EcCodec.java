package org.tropos.common.ec;

import java.util.Locale;
import org.apache.hadoop.io.erasurecode.ErasureCodeNative;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.NativeRSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.NativeRSRawEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.NativeXORRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.NativeXORRawEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RawErasureDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RawErasureEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawEncoder;

/**
 * The erasure codes Tropos writes, by their names in a replication config, and Hadoop's raw coders for them: the
 * ISA-L ones when Hadoop's native library loads (they want direct buffers), the pure Java ones otherwise (they work
 * on heap arrays). Both produce the same bytes, so a stripe written with one is read with the other.
 */
public enum EcCodec {
  /** Reed-Solomon, any number of parity units: Hadoop's "rs" (ISA-L compatible), not "rs-legacy". */
  RS,
  /** One parity unit, the XOR of the data units. */
  XOR;

  /** Whether the coders run natively (ISA-L); decided once, when this class loads. */
  public static final boolean NATIVE = ErasureCodeNative.isNativeCodeLoaded();

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

  RawErasureEncoder newEncoder(int data, int parity) {
    ErasureCoderOptions options = new ErasureCoderOptions(data, parity);
    return switch (this) {
      case RS -> NATIVE ? new NativeRSRawEncoder(options) : new RSRawEncoder(options);
      case XOR -> NATIVE ? new NativeXORRawEncoder(options) : new XORRawEncoder(options);
    };
  }

  RawErasureDecoder newDecoder(int data, int parity) {
    ErasureCoderOptions options = new ErasureCoderOptions(data, parity);
    return switch (this) {
      case RS -> NATIVE ? new NativeRSRawDecoder(options) : new RSRawDecoder(options);
      case XOR -> NATIVE ? new NativeXORRawDecoder(options) : new XORRawDecoder(options);
    };
  }
}
