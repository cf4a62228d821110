package org.tropos.om.simulation;

/**
 * One request of the concurrent run and where it falls in a serial history: a request that committed at its
 * commit (step, place in the batch); one that changed nothing where its last read phase ran (after the steps run
 * by then); one whose batch failed (its outcome unknown) wherever the check places it.
 */
final class Request {
  /** How a request ended, as far as the client can tell. */
  enum Fate {
    /** Committed: its changes are durable. */
    COMMITTED,
    /** Answered without changing anything (a read, or refused), on what its last read phase saw. */
    OBSERVED,
    /** Its batch failed to write: its changes may or may not have been made durable. */
    UNKNOWN,
    /**
     * Its changes were made durable, but it was answered an error: the batch of a deposed OM HA leader that a
     * majority had taken, for work of the OM's own (not sent again by a client).
     */
    APPLIED,
    /** Answered without a comparable outcome (the OM stopped under it, or conflicts made it give up). */
    DROPPED
  }

  final long seq;
  final int client;
  final NamespaceOp op;
  /** The call id its client sends on every attempt (OM HA's retry cache). */
  final String callId;
  /** Steps run when the request's last turn began: its last read phase saw their commits. */
  long stepsSeen;
  /** Steps run when the read phase of the transaction it last submitted ran. */
  long stepsSeenBySubmitted;
  Fate fate;
  String answer;
  /** Where it falls in a serial history: (step, place in the step's batch, tie-break). */
  long step;
  long place;
  long tieBreak;
  /** The run's restarts before it ended (an UNKNOWN outcome is settled by the next restart). */
  int epoch;
  /** COMMITTED or UNKNOWN once the step that took its transaction ran, else null. */
  private Fate placedFate;
  private long refusedStep = -1;
  private long refusedPlace;

  Request(long seq, int client, NamespaceOp op, String callId) {
    this.seq = seq;
    this.client = client;
    this.op = op;
    this.callId = callId;
  }

  /**
   * Its transaction's step ran as the {@code place}-th of step {@code atStep}: {@code how} is COMMITTED, or
   * UNKNOWN when the batch failed to write (INTERNAL_ERROR), an outcome only the next restart tells.
   */
  void placedAt(long atStep, int atPlace, Fate how) {
    if (placedFate == Fate.COMMITTED) {
      throw new IllegalStateException("request " + this + " committed two transactions");
    }
    placedFate = how;
    step = atStep;
    place = atPlace;
    if (answer != null) {
      // Answered before the step's outcome was known (a deposed leader's batch, applied by the next leader).
      decide();
    }
  }

  /** Validation refused its transaction with an error (not a conflict) as the {@code place}-th of a step. */
  void refused(long atStep, int atPlace) {
    refusedStep = atStep;
    refusedPlace = atPlace;
  }

  /** Records how it ended, now that its client has the answer. */
  void ended(String withAnswer, int inEpoch) {
    answer = withAnswer;
    epoch = inEpoch;
    tieBreak = seq;
    decide();
  }

  private void decide() {
    if (placedFate == Fate.COMMITTED) {
      fate = answer.equals("OM_NOT_READY") ? Fate.APPLIED : Fate.COMMITTED;
      if (op.placedWhereItRead()) {
        step = stepsSeenBySubmitted;
        place = Long.MAX_VALUE;
      }
    } else if (placedFate == Fate.UNKNOWN) {
      fate = Fate.UNKNOWN;
    } else if (answer.equals("TOO_MANY_CONFLICTS") || answer.equals("OM_NOT_READY")
        || answer.equals("INTERNAL_ERROR")) {
      fate = Fate.DROPPED;
    } else if (refusedStep >= 0) {
      fate = Fate.OBSERVED;
      step = refusedStep;
      place = refusedPlace;
    } else {
      fate = Fate.OBSERVED;
      step = stepsSeen;
      place = Long.MAX_VALUE;
    }
  }

  @Override
  public String toString() {
    return "#" + seq + " (client " + client + ") " + op;
  }
}
