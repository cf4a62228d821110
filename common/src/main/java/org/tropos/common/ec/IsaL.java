package org.tropos.common.ec;

import com.sun.jna.FunctionMapper;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Intel's ISA-L erasure code functions (Debian/Ubuntu package {@code libisal2}, {@code isa-l} elsewhere), called
 * through JNA's direct mapping. Loaded once, when this class loads; where the library is missing every caller falls
 * back to Hadoop's pure Java coder, which produces the same bytes ({@link EcCodec}).
 *
 * <p>Cell addresses go to ISA-L as {@code long} arrays: on the 64-bit platforms this binding loads on, an array of
 * pointers is exactly that.
 */
final class IsaL {
  private static final Logger LOG = LoggerFactory.getLogger(IsaL.class);
  /** The C names of the methods below (Java names stay camel case). */
  private static final Map<String, String> C_NAMES = Map.of("initTables", "ec_init_tables",
      "encodeData", "ec_encode_data", "genCauchyMatrix", "gf_gen_cauchy1_matrix", "invertMatrix", "gf_invert_matrix",
      "mul", "gf_mul");

  /** Why ISA-L is not used here; empty when it is. */
  static final Optional<String> UNAVAILABLE = load();

  private IsaL() {
  }

  static boolean available() {
    return UNAVAILABLE.isEmpty();
  }

  private static Optional<String> load() {
    Optional<String> unavailable = register();
    if (unavailable.isEmpty()) {
      LOG.info("Erasure coding runs on ISA-L");
    } else {
      LOG.info("Erasure coding runs on Hadoop's pure Java coder: ISA-L not loaded ({}); install libisal2 (isa-l)"
          + " to code faster", unavailable.get());
    }
    return unavailable;
  }

  private static Optional<String> register() {
    try {
      if (Native.POINTER_SIZE != Long.BYTES) {
        return Optional.of("a " + Native.POINTER_SIZE * 8 + "-bit platform");
      }
      NativeLibrary library = NativeLibrary.getInstance("isal", Map.of(Library.OPTION_FUNCTION_MAPPER,
          (FunctionMapper) (lib, method) -> C_NAMES.get(method.getName())));
      Native.register(IsaL.class, library);
      return Optional.empty();
    } catch (LinkageError | RuntimeException e) { // no libisal, or no JNA (its classes or its native stub)
      return Optional.of(String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
    }
  }

  /** The address of a direct buffer's position. */
  static long address(ByteBuffer direct) {
    return Pointer.nativeValue(Native.getDirectBufferPointer(direct)) + direct.position();
  }

  /** {@code a}: {@code m} rows of {@code k}, identity over Cauchy rows (Hadoop's "rs" coder makes the same). */
  static native void genCauchyMatrix(byte[] a, int m, int k);

  /** Inverts the {@code n} by {@code n} matrix {@code in} (which it overwrites) into {@code out}; 0 on success. */
  static native int invertMatrix(byte[] in, byte[] out, int n);

  /** The product of two elements of ISA-L's GF(2^8). */
  static native byte mul(byte a, byte b);

  /** Expands {@code rows} by {@code k} coefficients {@code a} into the tables encodeData takes (32 B each). */
  static native void initTables(int k, int rows, byte[] a, byte[] tables);

  /** Multiplies {@code k} source cells by the tables' rows into {@code rows} output cells of {@code length} bytes. */
  static native void encodeData(int length, int k, int rows, byte[] tables, long[] sources, long[] outputs);
}
