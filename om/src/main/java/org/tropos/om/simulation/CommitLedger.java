package org.tropos.om.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.tropos.common.rpc.OmException;
import org.tropos.om.occ.Conflict;
import org.tropos.proto.om.OmResult;

/**
 * Where each transaction the simulated clients submit falls in the serial history: the step that took it and its
 * place in the batch, and, once it is answered, what that answer says about its changes (committed, refused,
 * failed to write; with OM HA, left to a deposed leader until the next one has caught up).
 *
 * <p>Not thread-safe: the simulation's thread uses it.
 */
final class CommitLedger {
  /** A transaction a step took: its request, and where (step, place in the batch). */
  private record Taken(Request request, long step, int place) {
  }

  /** Transactions submitted and not yet answered, in submission order (so that runs settle them alike). */
  private final Map<CompletableFuture<Long>, Request> waiting = new LinkedHashMap<>();
  private final Map<CompletableFuture<Long>, Taken> taken = new HashMap<>();
  /** Transactions of batches a deposed OM HA leader had in flight: whether each applied is known later. */
  private final List<Taken> deposed = new ArrayList<>();

  /** {@code request} waits for {@code commit}. */
  void submitted(CompletableFuture<Long> commit, Request request) {
    waiting.put(commit, request);
  }

  /** Step {@code step} took {@code batch}, in order; returns their requests' numbers for the log. */
  List<String> took(List<CompletableFuture<Long>> batch, long step) {
    List<String> seqs = new ArrayList<>();
    for (int place = 0; place < batch.size(); place++) {
      Request request = waiting.get(batch.get(place));
      taken.put(batch.get(place), new Taken(request, step, place));
      seqs.add("#" + request.seq);
    }
    return seqs;
  }

  /** A transaction answered before any step took it (the OM stopped): nothing to place. */
  void forget(CompletableFuture<Long> commit) {
    waiting.remove(commit);
    taken.remove(commit);
  }

  /**
   * Records how each transaction a step took was answered, once it is; {@code replicated}: an OM_NOT_READY answer
   * comes from a deposed leader. Returns what it recorded, for the log ("" if nothing).
   */
  String settle(boolean replicated) {
    StringBuilder outcome = new StringBuilder();
    for (Iterator<Map.Entry<CompletableFuture<Long>, Request>> it = waiting.entrySet().iterator(); it.hasNext();) {
      CompletableFuture<Long> commit = it.next().getKey();
      Taken at = taken.get(commit);
      if (at == null || !commit.isDone()) {
        // Not taken by a step yet, or (a batch in flight) not answered yet.
        continue;
      }
      it.remove();
      taken.remove(commit);
      Throwable failed = commit.handle((id, t) -> t instanceof CompletionException c ? c.getCause() : t).join();
      outcome.append(" #").append(at.request().seq);
      if (failed == null) {
        at.request().placedAt(at.step(), at.place(), Request.Fate.COMMITTED);
        outcome.append(" committed");
      } else if (failed instanceof Conflict) {
        outcome.append(" conflicted");
      } else if (replicated && failed instanceof OmException e && e.result() == OmResult.OM_NOT_READY) {
        // The deposed leader answers none of its batches in flight; those a majority took apply all the same.
        deposed.add(at);
        outcome.append(" deposed");
      } else if (failed instanceof OmException e && e.result() == OmResult.INTERNAL_ERROR) {
        at.request().placedAt(at.step(), at.place(), Request.Fate.UNKNOWN);
        outcome.append(" failed to write");
      } else {
        at.request().refused(at.step(), at.place());
        outcome.append(" refused: ").append(failed);
      }
      outcome.append(" (step ").append(at.step()).append(')');
    }
    return outcome.toString();
  }

  /**
   * The next leader has caught up with {@code log}: the deposed leader's transactions it applied are placed at
   * their steps. Returns what it recorded, for the log.
   */
  String leaderCaughtUp(SimulatedRaftLog log) {
    StringBuilder outcome = new StringBuilder();
    for (Taken t : deposed) {
      boolean applied = log.applied(t.step());
      if (applied) {
        t.request().placedAt(t.step(), t.place(), Request.Fate.COMMITTED);
      }
      outcome.append(" #").append(t.request().seq).append(applied ? " applied" : " lost").append(" (step ")
          .append(t.step()).append(')');
    }
    deposed.clear();
    return outcome.toString();
  }
}
