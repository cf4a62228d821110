package org.tropos.tools.cli.sh;

import java.io.PrintWriter;
import org.tropos.common.conf.DataSize;

/** A one-line progress bar on a terminal for large transfers; silent when output is not a terminal. */
final class Progress {
  private static final long SHOWN_FROM_BYTES = 16L << 20;
  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final long total;
  private final boolean shown;
  private long done;
  private int lastPercent = -1;

  Progress(PrintWriter err, long total) {
    this.err = err;
    this.total = total;
    this.shown = System.console() != null && total >= SHOWN_FROM_BYTES;
  }

  void add(long bytes) {
    done += bytes;
    int percent = total == 0 ? 100 : (int) (done * 100 / total);
    if (shown && percent != lastPercent) {
      lastPercent = percent;
      int filled = percent * WIDTH / 100;
      err.printf("\r[%s%s] %3d%% %s of %s", "#".repeat(filled), " ".repeat(WIDTH - filled), percent,
          DataSize.ofBytes(done), DataSize.ofBytes(total));
      err.flush();
    }
  }

  void finish() {
    if (shown) {
      err.println();
      err.flush();
    }
  }
}
