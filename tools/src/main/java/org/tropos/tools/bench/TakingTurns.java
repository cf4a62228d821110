package org.tropos.tools.bench;

import java.util.Arrays;

/**
 * Renames of lone files of several sizes, each back and forth a number of rounds, the sizes taking turns in
 * every round so that all meet the same conditions (a disk whose sync latency drifts, a JIT still compiling).
 */
final class TakingTurns {
  /** One rename of the file of size number {@code size}, there ({@code back} false) or back; its seconds. */
  @FunctionalInterface
  interface Rename {
    double seconds(int size, boolean back) throws Exception;
  }

  private TakingTurns() {
  }

  /** Each size's times, sorted: the median is at {@code rounds / 2}, the slowest last. */
  static double[][] run(int sizes, int rounds, Rename rename) throws Exception {
    double[][] seconds = new double[sizes][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int s = 0; s < sizes; s++) {
        seconds[s][r] = rename.seconds(s, r % 2 == 1);
      }
    }
    for (double[] one : seconds) {
      Arrays.sort(one);
    }
    return seconds;
  }
}
