package org.tropos.om.simulation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tropos.common.io.FileTrees;
import org.tropos.common.rpc.OmException;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.om.simulation.Request.Fate;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * The serial model a concurrent run is checked against: the same requests run one at a time on a fresh OM, in
 * the order the run committed them (a request that changed nothing where its last read phase ran), must answer
 * as they did in the run and leave the same bucket (a request whose changes applied while it was answered an error
 * runs at its commit, its answer not compared). A batch that failed to write may still have been made durable
 * (its journal record written, the sync failed): such a batch is tried both ways, applied at the restart that
 * settled it (it can only have applied if nothing committed after it) or not at all.
 */
final class SerialHistory {
  /** A restart of the run: the steps run before it, and a request number between those before and after. */
  record Restart(long steps, long seq) {
  }

  /** Places in a serial history sort by (step, place in its batch, this), requests by their number times it. */
  private static final long PLACES_PER_REQUEST = 64;

  private final List<Request> requests;
  private final List<Restart> restarts;
  private final Path scratch;

  SerialHistory(List<Request> requests, List<Restart> restarts, Path scratch) {
    this.requests = requests;
    this.restarts = restarts;
    this.scratch = scratch;
  }

  /** Null if the run matches a serial history that {@code finalBucket} ends; otherwise what differs. */
  String check(List<String> finalBucket) throws IOException, OmException {
    List<Place> known = new ArrayList<>();
    Map<Long, List<Request>> unknownByStep = new TreeMap<>();
    for (Request r : requests) {
      if (r.fate == Fate.COMMITTED || r.fate == Fate.OBSERVED || r.fate == Fate.APPLIED) {
        known.add(new Place(r, r.step, r.place, r.seq * PLACES_PER_REQUEST));
      } else if (r.fate == Fate.UNKNOWN) {
        unknownByStep.computeIfAbsent(r.step, s -> new ArrayList<>()).add(r);
      }
    }
    String first = run(known, finalBucket);
    if (first == null) {
      return null;
    }
    StringBuilder others = new StringBuilder();
    for (Map.Entry<Long, List<Request>> batch : unknownByStep.entrySet()) {
      Restart settledBy = restarts.get(batch.getValue().get(0).epoch);
      List<Place> withBatch = new ArrayList<>(known);
      for (Request r : batch.getValue()) {
        // The purge's changes are what it computed where it read, wherever they were applied.
        withBatch.add(r.op.placedWhereItRead() ? new Place(r, r.stepsSeenBySubmitted, Long.MAX_VALUE,
            r.seq * PLACES_PER_REQUEST) : new Place(r, settledBy.steps(), Long.MAX_VALUE,
            settledBy.seq() * PLACES_PER_REQUEST + r.place));
      }
      String differs = run(withBatch, finalBucket);
      if (differs == null) {
        return null;
      }
      others.append("\n  with step ").append(batch.getKey()).append(", which failed to write, applied at the restart")
          .append(" after it: ").append(differs);
    }
    return first + others;
  }

  /** A request's place in a serial history. */
  private record Place(Request request, long step, long place, long tieBreak) {
  }

  private String run(List<Place> places, List<String> finalBucket) throws IOException, OmException {
    List<Place> order = new ArrayList<>(places);
    order.sort(Comparator.comparingLong(Place::step).thenComparingLong(Place::place)
        .thenComparingLong(Place::tieBreak));
    Path dir = scratch.resolve("serial");
    SimulatedOm om = SimulatedOm.serial(dir, new SimulatedClock());
    try {
      NamespaceSimulation.setUp(om);
      Map<Long, OpenKeyRow> opened = new HashMap<>();
      for (Place p : order) {
        Request r = p.request();
        String answer = NamespaceOp.answer(r.op, om, opened);
        if ((r.fate == Fate.COMMITTED || r.fate == Fate.OBSERVED) && !answer.equals(r.answer)) {
          return r + " answered \"" + r.answer + "\" in the run but \"" + answer + "\" in the serial history";
        }
      }
      List<String> bucket = NamespaceDump.of(om);
      return bucket.equals(finalBucket) ? null : "the bucket after the run is\n      "
          + String.join("\n      ", finalBucket) + "\n    but after the serial history\n      "
          + String.join("\n      ", bucket);
    } finally {
      om.committer.stop();
      om.db.closeAsCrashed();
      FileTrees.delete(dir);
    }
  }
}
