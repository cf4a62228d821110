package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.tropos.common.net.HostPort;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.util.Threads;

/**
 * The floor Apache Ratis sets on this machine for OM HA: a group of three members in this process, set up as the
 * OMs' ({@link RaftMember}), whose state machine does nothing, fed as the OM's committer feeds its group. Callers
 * hand over a write of the size of one create's write set and wait for it; one thread gathers whatever is waiting
 * into one log entry (group commit, up to {@value #BATCH_MAX} writes, {@value #IN_FLIGHT} entries in flight, as
 * {@code RatisBatchLog}) and submits it to the leader in-process. What a write costs here is Ratis's alone (log
 * writes and syncs on three members, gRPC between them, the hand-offs between their threads): no OM on this Raft
 * group, however cheap its own work, can create files faster from as many threads.
 */
final class RaftFloor implements AutoCloseable {
  /** Bytes of the Raft log per create, measured on the OM HA service (a create's rows, keys and values). */
  static final int WRITE_BYTES = 128;
  /** As the OM's committer: most writes per entry (ozone.om.occ.commit.batch.max), entries in flight. */
  static final int BATCH_MAX = 1024;
  static final int IN_FLIGHT = 2;
  private static final int QUEUE_LIMIT = 4096;
  private static final long POLL_MS = 50;

  private final List<RaftMember> members;
  private final RaftMember.Submitter leader;
  private final BlockingQueue<CompletableFuture<Void>> waiting = new ArrayBlockingQueue<>(QUEUE_LIMIT);
  private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
  private final ExecutorService batcher = Threads.boundedPool("raft-floor-batcher", 1, 1);
  private volatile boolean running = true;

  private RaftFloor(List<RaftMember> members, RaftMember.Submitter leader) {
    this.members = members;
    this.leader = leader;
  }

  /** Three members with their logs under {@code dir}, started; returns once one leads. */
  static RaftFloor start(Path dir) throws Exception {
    Map<String, HostPort> peers = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      peers.put("m" + i, new HostPort("127.0.0.1", OmTarget.freePort()));
    }
    List<RaftMember> members = new ArrayList<>();
    try {
      for (String id : peers.keySet()) {
        RaftMember member = new RaftMember("floor", "floor", peers, id, dir.resolve(id), new NothingStateMachine(),
            properties -> { });
        members.add(member);
        member.start();
      }
      RaftMember[] found = {null};
      Threads.awaitCondition("a Raft leader", Duration.ofSeconds(30), Duration.ofMillis(20), () -> {
        for (RaftMember m : members) {
          if (m.isReadyLeader()) {
            found[0] = m;
          }
        }
        return found[0] != null;
      });
      RaftFloor floor = new RaftFloor(members, found[0].submitter());
      floor.batcher.execute(floor::gatherAndSubmit);
      return floor;
    } catch (Exception e) {
      closeAll(members);
      throw e;
    }
  }

  /** Hands one write to the batcher; returns once the entry that carries it is committed and applied. */
  void commit() throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    waiting.put(done);
    done.get();
  }

  /** The batcher: one entry of everything waiting, at most {@value #IN_FLIGHT} entries out at once. */
  private void gatherAndSubmit() {
    try {
      while (running) {
        inFlight.acquire();
        List<CompletableFuture<Void>> batch = new ArrayList<>();
        CompletableFuture<Void> first = waiting.poll(POLL_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
          inFlight.release();
          continue;
        }
        batch.add(first);
        waiting.drainTo(batch, BATCH_MAX - 1);
        leader.submit(Message.valueOf("x".repeat(batch.size() * WRITE_BYTES)))
            .whenComplete((reply, failure) -> {
              inFlight.release();
              Exception error = failure != null ? new IOException("the Raft group did not take an entry", failure)
                  : reply.isSuccess() ? null : new IOException("the Raft group did not commit an entry: "
                      + reply.getException());
              batch.forEach(w -> {
                if (error == null) {
                  w.complete(null);
                } else {
                  w.completeExceptionally(error);
                }
              });
            });
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeAll(List<RaftMember> members) throws IOException {
    for (RaftMember m : members) {
      m.close();
    }
  }

  @Override
  public void close() throws IOException {
    running = false;
    Threads.shutdown(batcher, Duration.ofSeconds(10));
    closeAll(members);
  }

  /** Applies nothing: only the log position moves. */
  private static final class NothingStateMachine extends BaseStateMachine {
    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
      LogEntryProto entry = trx.getLogEntry();
      updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
      return CompletableFuture.completedFuture(Message.EMPTY);
    }
  }
}
