package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;

/** When and which pipeline is replaced so pipelines follow the cluster (two pipelines per node). */
class PipelineRenewalPolicyTest {
  private final PipelineRenewalPolicy policy = new PipelineRenewalPolicy(new PipelinePlacementPolicy(
      new PipelineLimits(2, 2, 0)));
  private final Map<UUID, String> racks = new LinkedHashMap<>();
  private final Map<UUID, List<UUID>> open = new HashMap<>();
  private int pipelinesMade;

  private UUID node(String rack) {
    UUID id = new UUID(0, racks.size() + 1);
    racks.put(id, rack);
    return id;
  }

  private UUID pipeline(UUID... members) {
    UUID id = new UUID(1, ++pipelinesMade);
    open.put(id, List.of(members));
    return id;
  }

  private Optional<PipelineRenewalPolicy.Renewal> choose() {
    return policy.choose(open, nodes(), true);
  }

  /** Every node with the open pipelines it is in. */
  private List<PlacementNode> nodes() {
    List<PlacementNode> nodes = new ArrayList<>();
    racks.forEach((id, rack) -> nodes.add(new PlacementNode(id, rack, 1,
        (int) open.values().stream().filter(m -> m.contains(id)).count(), 0, true)));
    return nodes;
  }

  @Test
  void aNodeThatCameBackGetsAPipelineWhenTheOthersAreFull() {
    UUID a = node("/r1");
    UUID b = node("/r2");
    UUID c = node("/r1");
    node("/r2");
    // a, b, c are in two pipelines each: the fourth node cannot join a new one.
    pipeline(a, b, c);
    UUID second = pipeline(c, b, a);
    Optional<PipelineRenewalPolicy.Renewal> renewal = choose();
    assertTrue(renewal.isPresent());
    assertTrue(renewal.get().reason().contains("have no pipeline"), renewal.get().reason());
    assertTrue(open.containsKey(renewal.get().pipeline()));
    open.remove(renewal.get().pipeline());
    assertEquals(1, open.size(), "one at a time: " + second);
  }

  @Test
  void nothingIsReplacedWhileANewPipelineCanStillBePlacedOrEveryNodeHasOne() {
    UUID a = node("/r1");
    UUID b = node("/r2");
    UUID c = node("/r1");
    UUID d = node("/r2");
    pipeline(a, b, c);
    assertTrue(choose().isEmpty(), "d, a, b... can still form a new pipeline");
    pipeline(d, a, b);
    pipeline(c, d, a);
    assertTrue(choose().isEmpty(), "every node has a pipeline");
  }

  @Test
  void aReplacementThatOnlyMovesTheIdleNodeElsewhereIsNotMade() {
    PipelineRenewalPolicy onePerNode = new PipelineRenewalPolicy(new PipelinePlacementPolicy(
        new PipelineLimits(1, 1, 0)));
    node("/r2");
    UUID a = node("/r1");
    UUID b = node("/r2");
    UUID c = node("/r1");
    pipeline(a, b, c);
    List<PlacementNode> nodes = new ArrayList<>();
    racks.forEach((id, rack) -> nodes.add(new PlacementNode(id, rack, 1, id.equals(a) || id.equals(b)
        || id.equals(c) ? 1 : 0, 0, true)));
    assertTrue(onePerNode.choose(open, nodes, true).isEmpty(), "a fourth node with a limit of one stays idle: "
        + "replacing the pipeline would idle another (seen while a cluster's datanodes were still registering)");
  }

  @Test
  void aPipelineOnOneRackMovesOnceTheOtherRackIsBack() {
    UUID a = node("/r1");
    UUID b = node("/r1");
    UUID c = node("/r1");
    UUID oneRack = pipeline(a, b, c);
    assertTrue(choose().isEmpty(), "no other rack yet");
    node("/r2");
    assertEquals(oneRack, choose().orElseThrow().pipeline());
    assertTrue(choose().orElseThrow().reason().contains("all its members are on rack /r1"));
  }

  @Test
  void aLateNodeLeftWithRoomNoTwoOthersShareGetsItsPipelinesOnceOneIsReplaced() throws ScmException {
    PipelinePlacementPolicy placement = new PipelinePlacementPolicy(new PipelineLimits(3, 3, 0));
    UUID n1 = node("/rack1");
    UUID n2 = node("/rack2");
    UUID n3 = node("/rack1");
    UUID n4 = node("/rack2");
    UUID n5 = node("/rack1");
    UUID n6 = node("/rack2");
    // Seen when n6 registered after the first fill: n1..n4 at their limit of 3, n5 in 2 and n6 in 1, so the 3
    // free places are on two nodes and a sixth pipeline cannot form.
    pipeline(n2, n1, n4);
    pipeline(n1, n4, n3);
    pipeline(n5, n2, n1);
    pipeline(n3, n4, n5);
    pipeline(n6, n3, n2);
    PipelineRenewalPolicy renewals = new PipelineRenewalPolicy(placement);
    assertTrue(renewals.choose(open, nodes(), false).isEmpty(), "at the cluster's limit no replacement could add"
        + " one, and each would be replaced again");
    PipelineRenewalPolicy.Renewal renewal = renewals.choose(open, nodes(), true).orElseThrow();
    assertTrue(renewal.reason().contains("one more fits"), renewal.reason());
    open.remove(renewal.pipeline());
    for (int i = 0; i < 2; i++) {
      Set<Set<UUID>> used = open.values().stream().map(Set::copyOf).collect(Collectors.toSet());
      pipeline(placement.place(ReplicationFactor.THREE, nodes(), used).members().toArray(UUID[]::new));
    }
    assertTrue(nodes().stream().allMatch(n -> n.pipelines() == 3), "the fill after the replacement places two, "
        + "six in all, three on every node: " + open.values());
  }

  @Test
  void atTheMostPipelinesTheNodesCanHoldNothingIsReplacedThoughTwoHaveRoom() {
    UUID a = node("/r1");
    UUID b = node("/r2");
    UUID c = node("/r1");
    UUID d = node("/r2");
    // 4 nodes × 2 places hold 2 pipelines: c and d have a place each, and no replacement makes a third fit.
    pipeline(a, b, c);
    pipeline(a, b, d);
    assertTrue(choose().isEmpty());
  }
}
