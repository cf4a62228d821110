package org.tropos.om.simulation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.tropos.common.io.FileTrees;
import org.tropos.common.rpc.OmException;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.common.simulation.Trace;
import org.tropos.common.util.Clock;
import org.tropos.om.db.OmDb;
import org.tropos.om.occ.CallScope;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * A seeded, deterministic simulation of the OM's optimistic namespace (issue 44): the real namespace, runner,
 * commit pipeline and database (on RocksDB) serve a few clients whose requests collide on a handful of names in
 * one FSO bucket. Half the seeds run a single OM, whose batches go through its journal; the other half an OM HA
 * group, whose leader's batches go through a simulated Raft log ({@link SimulatedRaftLog}) with two in flight,
 * and whose clients send a call again, under the same call id, when a failover answers it OM_NOT_READY. The seed
 * chooses every interleaving: which client runs its read phase next, when the committer takes a batch and how
 * large, when the log applies an entry, when a journal sync or RocksDB write fails, when the leader is deposed
 * (a seeded prefix of the entries in flight committed, the rest lost) and when the OM (with HA, every OM)
 * crashes, RocksDB losing what it had not flushed, and restarts from its journal or Raft log.
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
  /** Events a failure prints: {@code -Dsimulation.om.trace=N} shows more. */
  private static final int TRACE = Integer.getInteger("simulation.om.trace", 200);

  /** What one seed found: {@code failure} null if it passed. */
  public record Outcome(long seed, String failure, boolean replicated, long committed, int restarts,
      int leaderChanges) implements SeedRuns.Outcome {
  }

  /** A flaw planted on purpose, for a test to show the simulation finds it. */
  public enum PlantedFlaw {
    NONE,
    /** OM HA records no client call, so a call sent again after a failover runs again. */
    FORGETS_CALLS
  }

  private final long seed;
  private final Random random;
  private final Path scratch;
  private final PlantedFlaw flaw;
  private final SimulatedClock clock = new SimulatedClock();
  private final List<Request> requests = new ArrayList<>();
  private final Map<Integer, Request> running = new HashMap<>();
  private final CommitLedger ledger = new CommitLedger();
  /** OM HA: requests answered OM_NOT_READY by a failover, to be sent again by their client. */
  private final Map<Integer, Request> toRetry = new HashMap<>();
  private final Map<Integer, List<Long>> openedBy = new HashMap<>();
  private final Map<Long, OpenKeyRow> opened = new HashMap<>();
  private final List<SerialHistory.Restart> restarts = new ArrayList<>();
  private final Trace trace = new Trace(TRACE, clock);
  private FaultSchedule schedule;
  private Clients clients;
  private OmDb db;
  private SimulatedOm om;
  /** The OM HA group's Raft log; null for a single OM. */
  private SimulatedRaftLog raftLog;
  private long term;
  private int leaderChanges;
  private long steps;
  private long nextSeq = 1;
  private int epoch;
  private String failure;

  private NamespaceSimulation(long seed, Path scratch, PlantedFlaw flaw) {
    this.seed = seed;
    this.random = new Random(seed);
    this.scratch = scratch;
    this.flaw = flaw;
  }

  /** Runs one seed with its databases under {@code scratch} (removed afterwards). */
  public static Outcome run(long seed, Path scratch, PlantedFlaw flaw) throws IOException {
    return new NamespaceSimulation(seed, scratch, flaw).run();
  }

  /**
   * Runs seeds {@code first} to {@code first + count - 1} on {@code threads} threads ({@link SeedRuns}); the
   * report's work is the transactions committed.
   */
  public static SeedRuns.Report<Outcome> runSeeds(long first, long count, int threads, PlantedFlaw flaw,
      Clock clock) throws IOException {
    return SeedRuns.run(first, count, threads, () -> {
      Path dir = SeedRuns.scratchDirectory();
      return new SeedRuns.Runner<Outcome>() {
        @Override
        public Outcome run(long seed) throws IOException {
          return NamespaceSimulation.run(seed, dir, flaw);
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
    boolean replicated = random.nextBoolean();
    schedule = new FaultSchedule(random, ACTIONS, replicated, StruckFaults.use(), this::log);
    try (Clients started = new Clients(clientCount)) {
      clients = started;
      if (replicated) {
        raftLog = new SimulatedRaftLog();
      }
      openOm();
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
      if (raftLog != null) {
        // Nothing waits on the log any more: its batches in flight fail rather than hold the stop.
        raftLog.deposeLeader(0);
      }
      if (om != null) {
        om.committer.stop();
      }
      if (db != null) {
        // Without the flush of a clean close: the database is removed at once.
        db.closeAsCrashed();
      }
      FileTrees.delete(live());
    }
    long committed = requests.stream().filter(r -> r.fate == Request.Fate.COMMITTED).count();
    return new Outcome(seed, failure == null ? null : describe(clientCount), raftLog != null, committed,
        restarts.size(), leaderChanges);
  }

  /** Opens the database (replaying the journal, with HA the Raft log) and the OM serving it. */
  private void openOm() throws IOException {
    db = OmDb.open(live());
    om = raftLog == null ? SimulatedOm.single(db, clock, this::afterSubmit) : leader();
  }

  /**
   * The OM HA group's next leader, on the database caught up with the log, in a term of its own; the deposed
   * leader's transactions it applied are placed at their steps.
   */
  private SimulatedOm leader() throws IOException {
    raftLog.catchUp(db);
    log("the leader of term " + (term + 1) + " caught up:" + ledger.leaderCaughtUp(raftLog));
    return SimulatedOm.leader(db, raftLog, ++term, flaw != PlantedFlaw.FORGETS_CALLS, clock, this::afterSubmit);
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
    if (client != null) {
      client.park(commit);
      return;
    }
    while (!commit.isDone()) {
      om.committer.step(Integer.MAX_VALUE);
      try {
        while (raftLog != null && raftLog.inFlight() > 0) {
          raftLog.commitOldest(db);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      om.committer.finishApplied();
    }
  }

  private void act() throws IOException, OmException {
    FaultSchedule.Strike strike = schedule.next();
    if (strike == FaultSchedule.Strike.CRASH) {
      restart(true);
    } else if (strike == FaultSchedule.Strike.DEPOSE_LEADER) {
      changeLeader();
    }
    List<Clients.Client> idle = clients.all().stream().filter(Clients.Client::idle).toList();
    List<Clients.Client> resumable = clients.all().stream().filter(Clients.Client::resumable).toList();
    boolean canApply = raftLog != null && raftLog.inFlight() > 0;
    int choice = random.nextInt(10);
    if (choice < 4 && !idle.isEmpty()) {
      start(idle.get(random.nextInt(idle.size())));
    } else if (choice < 7 && !resumable.isEmpty()) {
      resume(resumable.get(random.nextInt(resumable.size())));
    } else if (om.committer.canStep() && (!canApply || random.nextBoolean())) {
      step(1 + random.nextInt(MAX_BATCH));
    } else if (canApply) {
      applyOldest();
    } else if (!idle.isEmpty()) {
      start(idle.get(random.nextInt(idle.size())));
    } else if (!resumable.isEmpty()) {
      resume(resumable.get(random.nextInt(resumable.size())));
    }
  }

  private void start(Clients.Client client) {
    Request retried = toRetry.remove(client.id);
    if (retried != null) {
      log("send again " + retried);
      turn(client, retried, true);
      return;
    }
    long seq = nextSeq++;
    NamespaceOp op = NamespaceOp.random(random, seq, openedBy.computeIfAbsent(client.id, c -> new ArrayList<>()),
        client.id == 0);
    Request request = new Request(seq, client.id, op, "client" + client.id + ":" + clock.millis() + ":" + seq);
    requests.add(request);
    running.put(client.id, request);
    log("start " + request);
    turn(client, request, true);
  }

  private void resume(Clients.Client client) {
    turn(client, running.get(client.id), false);
  }

  /**
   * Gives {@code client} the turn: to start {@code request} on the OM serving now (with HA under the request's
   * call id, as the client sends it on every attempt; not the purge, which is the OM's own work) or to resume it.
   */
  private void turn(Clients.Client client, Request request, boolean starting) {
    request.stepsSeen = visibleSteps();
    if (!starting) {
      client.resume();
    } else if (raftLog == null || request.op instanceof NamespaceOp.Purge) {
      SimulatedOm target = om;
      client.start(() -> NamespaceOp.answer(request.op, target, opened));
    } else {
      SimulatedOm target = om;
      client.start(() -> {
        try (CallScope call = CallScope.open(request.callId)) {
          return NamespaceOp.answer(request.op, target, opened);
        }
      });
    }
    afterTurn(client, request);
  }

  /**
   * The steps whose changes a read phase sees now: all of them with the journal; with the Raft log, those before
   * the oldest batch the database has not applied.
   */
  private long visibleSteps() {
    long notApplied = raftLog == null ? -1 : raftLog.oldestStepNotApplied();
    return notApplied < 0 ? steps : notApplied - 1;
  }

  private void afterTurn(Clients.Client client, Request request) {
    String answer = client.takeAnswer();
    if (answer == null) {
      ledger.submitted(client.awaited(), request);
      request.stepsSeenBySubmitted = request.stepsSeen;
      return;
    }
    if (raftLog != null && answer.equals(OmResult.OM_NOT_READY.name())
        && !(request.op instanceof NamespaceOp.Purge)) {
      toRetry.put(client.id, request);
      log("answer " + request + ": " + answer + ", to be sent again");
      return;
    }
    running.remove(client.id);
    request.ended(answer, epoch);
    log("answer " + request + ": " + answer + " (" + request.fate + ")");
    if (answer.startsWith("threw ")) {
      failure = request + " " + answer;
    } else if (answer.equals(OmResult.INTERNAL_ERROR.name()) && !schedule.struck()) {
      failure = request + " answered INTERNAL_ERROR with no fault struck";
    } else if (request.op instanceof NamespaceOp.Check && !answer.equals("consistent")) {
      failure = "the bucket is inconsistent: " + answer;
    } else if (request.op instanceof NamespaceOp.Open o && answer.equals("ok")) {
      openedBy.get(client.id).add(o.handle());
    }
  }

  private void step(int max) {
    if (raftLog != null) {
      raftLog.stepStarts(steps + 1);
    }
    List<CompletableFuture<Long>> batch = om.committer.step(max);
    if (batch.isEmpty()) {
      return;
    }
    steps++;
    log("step " + steps + " takes " + ledger.took(batch, steps));
    settle();
  }

  /** The Raft log commits and applies its oldest entry; the leader fail-stops if applying it fails. */
  private void applyOldest() throws IOException, OmException {
    try {
      raftLog.commitOldest(db);
    } catch (IOException e) {
      log("applying the oldest entry failed (" + e.getMessage() + "): the OMs stop");
      restart(true);
      return;
    }
    om.committer.finishApplied();
    settle();
  }

  private void settle() {
    String outcome = ledger.settle(raftLog != null);
    if (!outcome.isEmpty()) {
      log("settled:" + outcome);
    }
  }

  /** Lets every request finish: steps run, entries apply and clients resume until all are idle and nothing waits. */
  private void drain() throws IOException, OmException {
    while (failure == null) {
      if (om.committer.canStep()) {
        step(Integer.MAX_VALUE);
        continue;
      }
      if (raftLog != null && raftLog.inFlight() > 0) {
        applyOldest();
        continue;
      }
      Clients.Client next = clients.all().stream().filter(c -> c.resumable() || toRetry.containsKey(c.id))
          .findFirst().orElse(null);
      if (next == null) {
        return;
      }
      if (next.resumable()) {
        resume(next);
      } else {
        start(next);
      }
    }
  }

  /**
   * OM HA: the leader is deposed. Of its batches in flight a seeded prefix had reached a majority, and the next
   * leader applies them before it serves; it takes over in a new term, and the clients waiting on the old one are
   * answered OM_NOT_READY (and send their calls again).
   */
  private void changeLeader() throws IOException, OmException {
    int reached = random.nextInt(raftLog.inFlight() + 1);
    log("leader deposed: " + reached + " of its " + raftLog.inFlight() + " batches in flight reached a majority");
    raftLog.deposeLeader(reached);
    stopServing();
    leaderChanges++;
    try {
      om = leader();
    } catch (IOException e) {
      log("catching up failed (" + e.getMessage() + "): the OMs stop");
      restart(true);
    }
  }

  /** The OM stops serving: what waits for it is answered, and its clients told so. */
  private void stopServing() {
    om.committer.stop();
    settle();
    for (Clients.Client client : clients.all()) {
      while (client.resumable() && failure == null) {
        ledger.forget(client.awaited());
        resume(client);
      }
    }
  }

  /**
   * Stops the OM (with HA, every OM), as a crash (RocksDB loses what it had not flushed; the journal or the Raft
   * log replays it) or cleanly, and opens it again; requests waiting for a step are answered OM_NOT_READY first,
   * as a stopping OM answers them.
   */
  private void restart(boolean crash) throws IOException, OmException {
    log(crash ? "crash" : "clean restart");
    if (raftLog != null) {
      int reached = raftLog.inFlight() == 0 ? 0 : random.nextInt(raftLog.inFlight() + 1);
      raftLog.deposeLeader(reached);
    }
    stopServing();
    schedule.restarted();
    OmDb closing = db;
    db = null;
    if (crash) {
      closing.closeAsCrashed();
    } else {
      closing.close();
    }
    restarts.add(new SerialHistory.Restart(steps, nextSeq++));
    epoch++;
    om = null;
    openOm();
    String check = NamespaceOp.answer(new NamespaceOp.Check(), om, opened);
    if (!check.equals("consistent") && failure == null) {
      failure = "after the restart the bucket is inconsistent: " + check;
    }
  }

  private void log(String event) {
    trace.add(event);
  }

  private String describe(int clientCount) {
    return "seed " + seed + ": " + failure + "\n  " + (raftLog == null ? "a single OM, " : "an OM HA group, ")
        + clientCount + " clients, " + requests.size() + " requests, " + steps + " steps, " + restarts.size()
        + " restarts, " + leaderChanges + " leader changes; the last events:\n" + trace.lines("    ");
  }
}
