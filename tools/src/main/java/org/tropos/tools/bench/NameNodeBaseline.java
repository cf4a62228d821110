package org.tropos.tools.bench;

import java.nio.file.Path;

/** Temporary. */
final class NameNodeBaseline {
  record Result(double opsPerSec, double seconds) {
  }

  private NameNodeBaseline() {
  }

  static Result creates(Path dir, int threads, int files) {
    throw new UnsupportedOperationException("not yet");
  }

  static Result mixed(Path dir, int threads, int files) {
    throw new UnsupportedOperationException("not yet");
  }
}
