package org.tropos.om.simulation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.io.FileTrees;
import org.tropos.common.rpc.OmException;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.common.util.Clock;
import org.tropos.om.occ.Conflict;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * A seeded, deterministic simulation of the OM's optimistic namespace (issue 44): the real namespace, runner,
 * commit pipeline and database (with its journal, on RocksDB) serve a few clients whose requests collide on a
 * handful of names in one FSO bucket. The seed chooses every interleaving: which client runs its read phase
 * next, when the committer takes a batch and how large, when a journal sync or RocksDB write fails, and when the
 * OM crashes (RocksDB losing what it had not flushed) and restarts from its journal.
 *
 * <p>Checks: every answer equals the answer of the same request in a serial history (each committed request at
 * its commit, each other at its last read phase; a request whose batch failed to write either at the restart
 * that settles it or nowhere), and so does the bucket at the end; the bucket is consistent (no orphan, no cycle,
 * usage matching) whenever a client checks and after every restart. A failure names the seed and the last events;
 * the seed replays it.
 */
public final class NamespaceSimulation {
  private static final int ACTIONS = 300;
  private static final int MAX_BATCH = 4;
  private static final int EVENTS_KEPT = 200;

  /** What one seed found: {@code failure} null if it passed. */
  public record Outcome(long seed, String failure, long committed, int restarts) implements SeedRuns.Outcome {
  }

  private final long seed;
  private final Random random;
  private final Path scratch;
  private final SimulatedClock clock = new SimulatedClock();
  private final List<Request> requests = new ArrayList<>();
  private final Map<Integer, Request> running = new HashMap<>();
  private final Map<CompletableFuture<Long>, Request> waiting = new HashMap<>();
  private final Map<Integer, List<Long>> openedBy = new HashMap<>();
  private final Map<Long, OpenKeyRow> opened = new HashMap<>();
  private final List<SerialHistory.Restart> restarts = new ArrayList<>();
  private final ArrayDeque<String> events = new ArrayDeque<>();
  private StruckFaults.Plan faults;
  private Clients clients;
  private SimulatedOm om;
  private long steps;
  private long nextSeq = 1;
  private int epoch;
  private boolean faultPlanned;
  private boolean struckThisEpoch;
  private int crashIn = -1;
  private String failure;

  private NamespaceSimulation(long seed, Path scratch) {
    this.seed = seed;
    this.random = new Random(seed);
    this.scratch = scratch;
  }

  /** Runs one seed with its databases under {@code scratch} (removed afterwards). */
  public static Outcome run(long seed, Path scratch) throws IOException {
    return new NamespaceSimulation(seed, scratch).run();
  }

  /**
   * Runs seeds {@code first} to {@code first + count - 1} on {@code threads} threads ({@link SeedRuns}); the
   * report's work is the transactions committed.
   */
  public static SeedRuns.Report<Outcome> runSeeds(long first, long count, int threads, Clock clock)
      throws IOException {
    return SeedRuns.run(first, count, threads, () -> {
      Path dir = SeedRuns.scratchDirectory();
      return new SeedRuns.Runner<Outcome>() {
        @Override
        public Outcome run(long seed) throws IOException {
          return NamespaceSimulation.run(seed, dir);
        }

        @Override
        public void close() throws IOException {
          FileTrees.delete(dir);
        }
      };
    }, Outcome::committed, clock);
  }

  private Outcome run() throws IOException {
    int clientCount = 2 + random.nextInt(4);
    faults = StruckFaults.use();
    try (Clients started = new Clients(clientCount)) {
      clients = started;
      om = SimulatedOm.open(live(), clock, this::afterSubmit);
      setUp(om);
      for (int i = 0; i < ACTIONS && failure == null; i++) {
        clock.advance(1 + random.nextInt(50));
        act();
      }
      if (failure == null) {
        drain();
        restart(false);
      }
      if (failure == null) {
        failure = new SerialHistory(requests, restarts, scratch).check(NamespaceDump.of(om));
      }
    } catch (IOException | OmException | RuntimeException e) {
      failure = "the run threw " + e;
    } finally {
      StruckFaults.release();
      if (om != null) {
        // Without the flush of a clean close: the database is removed at once.
        om.committer.stop();
        om.db.closeAsCrashed();
      }
      FileTrees.delete(live());
    }
    long committed = requests.stream().filter(r -> r.fate == Request.Fate.COMMITTED).count();
    return new Outcome(seed, failure == null ? null : describe(clientCount), committed, restarts.size());
  }

  private Path live() {
    return scratch.resolve("live");
  }

  /** The volume and bucket every request works in, made the same way in the serial history. */
  static void setUp(SimulatedOm om) throws OmException {
    om.namespace.createVolume(VolumeInfo.newBuilder().setName(NamespaceOp.VOLUME).build());
    om.namespace.createBucket(BucketInfo.newBuilder().setVolume(NamespaceOp.VOLUME).setName(NamespaceOp.BUCKET)
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
  }

  /** A transaction was submitted: a client waits for its step; the simulation's own set-up commits at once. */
  private void afterSubmit(CompletableFuture<Long> commit) {
    Clients.Client client = Clients.current();
    if (client == null) {
      om.committer.step(Integer.MAX_VALUE);
    } else {
      client.park(commit);
    }
  }

  private void act() throws IOException, OmException {
    maybeStrike();
    List<Clients.Client> idle = clients.all().stream().filter(Clients.Client::idle).toList();
    List<Clients.Client> resumable = clients.all().stream().filter(Clients.Client::resumable).toList();
    int choice = random.nextInt(10);
    if (choice < 4 && !idle.isEmpty()) {
      start(idle.get(random.nextInt(idle.size())));
    } else if (choice < 7 && !resumable.isEmpty()) {
      resume(resumable.get(random.nextInt(resumable.size())));
    } else if (om.committer.waiting() > 0) {
      step(1 + random.nextInt(MAX_BATCH));
    } else if (!idle.isEmpty()) {
      start(idle.get(random.nextInt(idle.size())));
    } else if (!resumable.isEmpty()) {
      resume(resumable.get(random.nextInt(resumable.size())));
    }
  }

  /** Plans a fault once per run, crashes some time after it strikes, and now and then crashes anyway. */
  private void maybeStrike() throws IOException, OmException {
    if (!faultPlanned && random.nextInt(ACTIONS) < 2) {
      faultPlanned = true;
      String point = random.nextBoolean() ? FaultPoints.JOURNAL_SYNC : FaultPoints.ROCKSDB_WRITE;
      int atHit = 1 + random.nextInt(3);
      faults.arm(point, atHit);
      log("armed: hit " + atHit + " of " + point + " fails");
    }
    if (faults.struck() && !struckThisEpoch) {
      struckThisEpoch = true;
      crashIn = random.nextInt(30);
      log("the fault struck; crash in " + crashIn + " actions");
    }
    if (crashIn == 0 || random.nextInt(ACTIONS * 2) == 0) {
      restart(true);
    } else if (crashIn > 0) {
      crashIn--;
    }
  }

  private void start(Clients.Client client) {
    long seq = nextSeq++;
    NamespaceOp op = NamespaceOp.random(random, seq, openedBy.computeIfAbsent(client.id, c -> new ArrayList<>()),
        client.id == 0);
    Request request = new Request(seq, client.id, op);
    requests.add(request);
    running.put(client.id, request);
    request.stepsSeen = steps;
    log("start " + request);
    SimulatedOm target = om;
    client.start(() -> NamespaceOp.answer(op, target, opened));
    afterTurn(client, request);
  }

  private void resume(Clients.Client client) {
    Request request = running.get(client.id);
    request.stepsSeen = steps;
    client.resume();
    afterTurn(client, request);
  }

  private void afterTurn(Clients.Client client, Request request) {
    String answer = client.takeAnswer();
    if (answer == null) {
      waiting.put(client.awaited(), request);
      request.stepsSeenBySubmitted = request.stepsSeen;
      return;
    }
    running.remove(client.id);
    request.ended(answer, epoch);
    log("answer " + request + ": " + answer + " (" + request.fate + ")");
    if (answer.startsWith("threw ")) {
      failure = request + " " + answer;
    } else if (answer.equals(OmResult.INTERNAL_ERROR.name()) && !struckThisEpoch && !faults.struck()) {
      failure = request + " answered INTERNAL_ERROR with no fault struck";
    } else if (request.op instanceof NamespaceOp.Check && !answer.equals("consistent")) {
      failure = "the bucket is inconsistent: " + answer;
    } else if (request.op instanceof NamespaceOp.Open o && answer.equals("ok")) {
      openedBy.get(client.id).add(o.handle());
    }
  }

  private void step(int max) {
    List<CompletableFuture<Long>> batch = om.committer.step(max);
    if (batch.isEmpty()) {
      return;
    }
    steps++;
    StringBuilder outcome = new StringBuilder("step " + steps + ":");
    for (int place = 0; place < batch.size(); place++) {
      CompletableFuture<Long> commit = batch.get(place);
      Request request = waiting.remove(commit);
      Throwable failed = commit.handle((id, t) -> t instanceof CompletionException c ? c.getCause() : t).join();
      if (failed == null) {
        request.placedAt(steps, place, Request.Fate.COMMITTED);
        outcome.append(" #").append(request.seq).append(" committed");
      } else if (failed instanceof Conflict) {
        outcome.append(" #").append(request.seq).append(" conflicted");
      } else if (failed instanceof OmException e && e.result() == OmResult.INTERNAL_ERROR) {
        request.placedAt(steps, place, Request.Fate.UNKNOWN);
        outcome.append(" #").append(request.seq).append(" failed to write");
      } else {
        request.refused(steps, place);
        outcome.append(" #").append(request.seq).append(" refused: ").append(failed);
      }
    }
    log(outcome.toString());
  }

  /** Lets every request finish: steps run and clients resume until all are idle and nothing waits. */
  private void drain() {
    while (failure == null) {
      if (om.committer.waiting() > 0) {
        step(Integer.MAX_VALUE);
        continue;
      }
      Clients.Client next = clients.all().stream().filter(Clients.Client::resumable).findFirst().orElse(null);
      if (next == null) {
        return;
      }
      resume(next);
    }
  }

  /**
   * Stops the OM, as a crash (RocksDB loses what it had not flushed; the journal replays it) or cleanly, and opens
   * it again; requests waiting for a step are answered OM_NOT_READY first, as a stopping OM answers them.
   */
  private void restart(boolean crash) throws IOException, OmException {
    log(crash ? "crash" : "clean restart");
    om.committer.stop();
    for (Clients.Client client : clients.all()) {
      while (client.resumable() && failure == null) {
        waiting.remove(client.awaited());
        resume(client);
      }
    }
    faults.disarm();
    if (crash) {
      om.db.closeAsCrashed();
    } else {
      om.db.close();
    }
    restarts.add(new SerialHistory.Restart(steps, nextSeq++));
    epoch++;
    struckThisEpoch = false;
    crashIn = -1;
    om = null;
    om = SimulatedOm.open(live(), clock, this::afterSubmit);
    String check = NamespaceOp.answer(new NamespaceOp.Check(), om, opened);
    if (!check.equals("consistent") && failure == null) {
      failure = "after the restart the bucket is inconsistent: " + check;
    }
  }

  private void log(String event) {
    if (events.size() == EVENTS_KEPT) {
      events.removeFirst();
    }
    events.addLast("[" + clock.millis() + " ms] " + event);
  }

  private String describe(int clientCount) {
    return "seed " + seed + ": " + failure + "\n  " + clientCount + " clients, " + requests.size() + " requests, "
        + steps + " steps, " + restarts.size() + " restarts; the last events:\n    "
        + String.join("\n    ", events);
  }
}
