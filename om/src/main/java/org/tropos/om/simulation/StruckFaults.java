package org.tropos.om.simulation;

import java.io.IOException;
import org.tropos.common.fault.FaultPoints;

/**
 * The fault points a seed strikes (issue 44's named points): armed once for the whole process while any seed
 * runs, each hit is passed to the striking plan of the seed whose threads hit it (an inheritable thread-local: a
 * seed's clients are threads it starts), so seeds on other threads and other tests see nothing.
 */
final class StruckFaults {
  private static final String[] POINTS = {FaultPoints.JOURNAL_SYNC, FaultPoints.ROCKSDB_WRITE};
  private static final InheritableThreadLocal<Plan> PLAN = new InheritableThreadLocal<>();
  private static int users;
  private static FaultPoints.Armed[] armed;

  private StruckFaults() {
  }

  /** A seed's plan: fail the {@code atHit}-th hit of {@code point} from now, once. */
  static final class Plan {
    private String point;
    private int hitsLeft;
    private boolean struck;

    void arm(String atPoint, int atHit) {
      point = atPoint;
      hitsLeft = atHit;
      struck = false;
    }

    /** Disarms it and forgets that it struck (the OM restarted). */
    void disarm() {
      point = null;
      struck = false;
    }

    /** Whether the armed fault has struck (and since disarmed itself). */
    boolean struck() {
      return struck;
    }

    boolean armed() {
      return point != null;
    }

    private void hit(String at) throws IOException {
      if (at.equals(point) && --hitsLeft == 0) {
        point = null;
        struck = true;
        throw new IOException("simulated fault at " + at);
      }
    }
  }

  /** Arms the points (the first user) and gives this thread, and the threads it starts, a plan of its own. */
  static synchronized Plan use() {
    if (users++ == 0) {
      armed = new FaultPoints.Armed[POINTS.length];
      for (int i = 0; i < POINTS.length; i++) {
        armed[i] = FaultPoints.arm(POINTS[i], StruckFaults::strike);
      }
    }
    Plan plan = new Plan();
    PLAN.set(plan);
    return plan;
  }

  /** This thread's seed is done; the last user disarms the points. */
  static synchronized void release() {
    PLAN.remove();
    if (--users == 0) {
      for (FaultPoints.Armed a : armed) {
        a.close();
      }
      armed = null;
    }
  }

  private static void strike(String point) throws IOException {
    Plan plan = PLAN.get();
    if (plan != null) {
      plan.hit(point);
    }
  }
}
