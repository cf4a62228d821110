package org.tropos.scm.pipeline;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Plans leadership transfers so every datanode leads its fair share of pipelines: the number of pipelines
 * times its weight (its pipeline limit) over the weights of all members; with equal disks, the mean.
 *
 * <p>Leadership moves along a chain of pipelines from a node above its share to one more than one below the
 * giver's excess (directly, or through members that give one and take one). Each chain strictly lowers the sum
 * of squared excesses: the plan always ends, and applying it never calls for the reverse move (no flapping).
 * Pure: the caller applies the transfers, in order.
 */
public final class LeaderBalancer {
  private static final double EPSILON = 1e-9;

  /** A pipeline's members and its current leader. */
  public record Leadership(UUID pipeline, List<UUID> members, UUID leader) {
  }

  /** Move {@code pipeline}'s leadership from {@code from} to {@code to}. */
  public record Transfer(UUID pipeline, UUID from, UUID to) {
  }

  private LeaderBalancer() {
  }

  /** @param weights each member's weight (its pipeline limit); a missing node weighs 1 */
  public static List<Transfer> plan(List<Leadership> pipelines, Map<UUID, Integer> weights) {
    Map<UUID, Double> excess = excessOverShare(pipelines, weights);
    Map<UUID, UUID> leaderOf = new HashMap<>();
    pipelines.forEach(p -> leaderOf.put(p.pipeline(), p.leader()));
    List<Transfer> transfers = new ArrayList<>();
    boolean improved = true;
    while (improved) {
      improved = false;
      List<UUID> donors = excess.keySet().stream()
          .sorted(Comparator.comparingDouble((UUID n) -> -excess.get(n)).thenComparing(n -> n)).toList();
      for (UUID donor : donors) {
        List<Transfer> chain = improvingChain(donor, pipelines, leaderOf, excess);
        if (!chain.isEmpty()) {
          chain.forEach(t -> leaderOf.put(t.pipeline(), t.to()));
          excess.merge(donor, -1.0, Double::sum);
          excess.merge(chain.get(chain.size() - 1).to(), 1.0, Double::sum);
          transfers.addAll(chain);
          improved = true;
          break;
        }
      }
    }
    return collapse(transfers);
  }

  /**
   * The shortest chain of transfers donor → ... → receiver (each hop hands over a pipeline the giver leads to one
   * of its members) ending at a node whose excess is more than one below the donor's; empty if none. Nodes in
   * the middle of the chain give one leadership and take one, so only the two ends change.
   */
  private static List<Transfer> improvingChain(UUID donor, List<Leadership> pipelines, Map<UUID, UUID> leaderOf,
      Map<UUID, Double> excess) {
    Map<UUID, List<Leadership>> led = new HashMap<>();
    pipelines.forEach(p -> led.computeIfAbsent(leaderOf.get(p.pipeline()), k -> new ArrayList<>()).add(p));
    Map<UUID, Transfer> reachedBy = new HashMap<>();
    ArrayDeque<UUID> queue = new ArrayDeque<>(List.of(donor));
    Set<UUID> seen = new HashSet<>(List.of(donor));
    while (!queue.isEmpty()) {
      UUID giver = queue.poll();
      for (Leadership p : led.getOrDefault(giver, List.of())) {
        for (UUID member : p.members()) {
          if (seen.add(member)) {
            reachedBy.put(member, new Transfer(p.pipeline(), giver, member));
            if (excess.get(donor) - excess.get(member) > 1 + EPSILON) {
              return chainTo(member, donor, reachedBy);
            }
            queue.add(member);
          }
        }
      }
    }
    return List.of();
  }

  private static List<Transfer> chainTo(UUID receiver, UUID donor, Map<UUID, Transfer> reachedBy) {
    List<Transfer> chain = new ArrayList<>();
    for (UUID at = receiver; !at.equals(donor); at = reachedBy.get(at).from()) {
      chain.add(0, reachedBy.get(at));
    }
    return chain;
  }

  private static Map<UUID, Double> excessOverShare(List<Leadership> pipelines, Map<UUID, Integer> weights) {
    Map<UUID, Double> excess = new HashMap<>();
    pipelines.forEach(p -> p.members().forEach(m -> excess.putIfAbsent(m, 0.0)));
    double totalWeight = excess.keySet().stream().mapToDouble(n -> weights.getOrDefault(n, 1)).sum();
    excess.replaceAll((node, zero) -> -pipelines.size() * weights.getOrDefault(node, 1) / totalWeight);
    pipelines.forEach(p -> excess.merge(p.leader(), 1.0, Double::sum));
    return excess;
  }

  /** One transfer per pipeline: from its current leader to where leadership ends up. */
  private static List<Transfer> collapse(List<Transfer> transfers) {
    Map<UUID, Transfer> byPipeline = new HashMap<>();
    for (Transfer t : transfers) {
      Transfer first = byPipeline.get(t.pipeline());
      byPipeline.put(t.pipeline(), first == null ? t : new Transfer(t.pipeline(), first.from(), t.to()));
    }
    return byPipeline.values().stream().filter(t -> !t.from().equals(t.to())).toList();
  }
}
