package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LeaderBalancerTest {
  private static UUID n(int i) {
    return new UUID(1, i);
  }

  private static Map<UUID, Integer> leadersAfter(List<LeaderBalancer.Leadership> pipelines,
      List<LeaderBalancer.Transfer> transfers) {
    Map<UUID, UUID> leaderOf = new HashMap<>();
    pipelines.forEach(p -> leaderOf.put(p.pipeline(), p.leader()));
    transfers.forEach(t -> {
      assertEquals(leaderOf.get(t.pipeline()), t.from(), "a transfer starts at the current leader");
      leaderOf.put(t.pipeline(), t.to());
    });
    Map<UUID, Integer> count = new HashMap<>();
    pipelines.forEach(p -> p.members().forEach(m -> count.putIfAbsent(m, 0)));
    leaderOf.values().forEach(l -> count.merge(l, 1, Integer::sum));
    return count;
  }

  @Test
  void aNodeLeadingEverythingAfterRestartsHandsLeadershipOut() {
    List<LeaderBalancer.Leadership> pipelines = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pipelines.add(new LeaderBalancer.Leadership(new UUID(2, i), List.of(n(0), n(1 + i % 3), n(4 + i % 2)), n(0)));
    }
    List<LeaderBalancer.Transfer> transfers = LeaderBalancer.plan(pipelines, Map.of());
    Map<UUID, Integer> after = leadersAfter(pipelines, transfers);
    int max = after.values().stream().max(Integer::compare).orElseThrow();
    int min = after.values().stream().min(Integer::compare).orElseThrow();
    assertTrue(max - min <= 1, "leaders per node after balancing: " + after);
    assertTrue(LeaderBalancer.plan(rebuilt(pipelines, transfers), Map.of()).isEmpty(), "a balanced cluster stays");
  }

  @Test
  void balancedLeadershipIsLeftAlone() {
    List<LeaderBalancer.Leadership> pipelines = List.of(
        new LeaderBalancer.Leadership(new UUID(2, 0), List.of(n(0), n(1), n(2)), n(0)),
        new LeaderBalancer.Leadership(new UUID(2, 1), List.of(n(0), n(1), n(2)), n(1)),
        new LeaderBalancer.Leadership(new UUID(2, 2), List.of(n(0), n(1), n(2)), n(2)),
        new LeaderBalancer.Leadership(new UUID(2, 3), List.of(n(0), n(1), n(2)), n(2)));
    assertTrue(LeaderBalancer.plan(pipelines, Map.of()).isEmpty(), "2-1-1 is within ±1: no flapping");
  }

  @Test
  void randomSkewConvergesWithinOneAndNeverFlaps() {
    Random random = new Random(42);
    for (int round = 0; round < 20; round++) {
      List<LeaderBalancer.Leadership> pipelines = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int a = random.nextInt(12);
        int b = (a + 1 + random.nextInt(11)) % 12;
        int c = (b + 1 + random.nextInt(10)) % 12;
        if (c == a) {
          c = (c + 1) % 12;
        }
        List<UUID> members = List.of(n(a), n(b), n(c));
        pipelines.add(new LeaderBalancer.Leadership(new UUID(2, i), members, members.get(random.nextInt(2))));
      }
      List<LeaderBalancer.Transfer> transfers = LeaderBalancer.plan(pipelines, Map.of());
      assertTrue(LeaderBalancer.plan(rebuilt(pipelines, transfers), Map.of()).isEmpty(),
          "round " + round + ": balancing twice moves nothing the second time");
    }
  }

  private static List<LeaderBalancer.Leadership> rebuilt(List<LeaderBalancer.Leadership> pipelines,
      List<LeaderBalancer.Transfer> transfers) {
    Map<UUID, UUID> moved = new HashMap<>();
    transfers.forEach(t -> moved.put(t.pipeline(), t.to()));
    return pipelines.stream().map(p -> new LeaderBalancer.Leadership(p.pipeline(), p.members(),
        moved.getOrDefault(p.pipeline(), p.leader()))).toList();
  }
}
