package org.tropos.om.simulation;

import java.util.Random;
import java.util.function.Consumer;
import org.tropos.common.fault.FaultPoints;

/**
 * When a seed's faults strike: once per run a fault point is armed to fail one of its next hits, the OM crashes
 * some actions after it struck, and now and then anyway; an OM HA group's leader is deposed now and then.
 *
 * <p>Not thread-safe: the simulation's thread uses it.
 */
final class FaultSchedule {
  /** What the simulation does before its next action. */
  enum Strike {
    NOTHING,
    CRASH,
    DEPOSE_LEADER
  }

  private final Random random;
  private final int actions;
  private final boolean replicated;
  private final StruckFaults.Plan plan;
  private final Consumer<String> log;
  private boolean planned;
  private boolean struckThisEpoch;
  private int crashIn = -1;

  /** Over a run of {@code actions} actions; {@code replicated}: an OM HA group, whose OMs write no journal. */
  FaultSchedule(Random random, int actions, boolean replicated, StruckFaults.Plan plan, Consumer<String> log) {
    this.random = random;
    this.actions = actions;
    this.replicated = replicated;
    this.plan = plan;
    this.log = log;
  }

  Strike next() {
    if (!planned && random.nextInt(actions) < 2) {
      planned = true;
      String point = !replicated && random.nextBoolean() ? FaultPoints.JOURNAL_SYNC : FaultPoints.ROCKSDB_WRITE;
      int atHit = 1 + random.nextInt(3);
      plan.arm(point, atHit);
      log.accept("armed: hit " + atHit + " of " + point + " fails");
    }
    if (plan.struck() && !struckThisEpoch) {
      struckThisEpoch = true;
      crashIn = random.nextInt(30);
      log.accept("the fault struck; crash in " + crashIn + " actions");
    }
    if (crashIn == 0 || random.nextInt(actions * 2) == 0) {
      return Strike.CRASH;
    }
    if (crashIn > 0) {
      crashIn--;
    }
    return replicated && random.nextInt(actions) < 3 ? Strike.DEPOSE_LEADER : Strike.NOTHING;
  }

  /** Whether the armed fault struck since the OM last started (an error answer may then be its doing). */
  boolean struck() {
    return struckThisEpoch || plan.struck();
  }

  /** The OM restarts: the armed fault, struck or not, is forgotten. */
  void restarted() {
    plan.disarm();
    struckThisEpoch = false;
    crashIn = -1;
  }
}
