package org.tropos.om.scm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.util.ManualClock;
import org.tropos.proto.scm.ContainerInfo;

class ContainerLocationsTest {
  private final ManualClock clock = new ManualClock();
  /** Every id SCM was asked for, per call. */
  private final List<List<Long>> asked = new ArrayList<>();

  /** SCM's answer: the ids it knows (below 100), each on a datanode host named after the reader and the call. */
  private List<ContainerInfo> scm(List<Long> ids, String clientHost) {
    asked.add(ids);
    return ids.stream().filter(id -> id < 100).map(id -> ContainerInfo.newBuilder().setContainerId(id)
        .addReplicas(org.tropos.proto.hdds.DatanodeDetails.newBuilder().setHostName(clientHost + "#" + asked.size()))
        .build()).toList();
  }

  private static List<String> hosts(List<ContainerInfo> infos) {
    return infos.stream().map(c -> c.getContainerId() + "@" + c.getReplicas(0).getHostName()).toList();
  }

  @Test
  void aLocationAnswersUntilItsTtlThenScmIsAskedAgain() {
    ContainerLocations locations = new ContainerLocations(clock, Duration.ofSeconds(10), 100);
    assertEquals(List.of("1@r#1", "2@r#1"), hosts(locations.get(List.of(1L, 2L), "r", this::scm)));
    clock.advance(Duration.ofSeconds(9));
    assertEquals(List.of("2@r#1", "1@r#1"), hosts(locations.get(List.of(2L, 1L), "r", this::scm)));
    assertEquals(1, asked.size(), "within the TTL SCM is not asked");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(List.of("1@r#2"), hosts(locations.get(List.of(1L), "r", this::scm)));
  }

  @Test
  void onlyWhatIsNotKnownIsAskedForAndTheAnswerKeepsTheOrderAsked() {
    ContainerLocations locations = new ContainerLocations(clock, Duration.ofSeconds(10), 100);
    locations.get(List.of(2L), "r", this::scm);
    assertEquals(List.of("3@r#2", "2@r#1", "1@r#2"), hosts(locations.get(List.of(3L, 2L, 1L), "r", this::scm)));
    assertEquals(List.of(List.of(2L), List.of(3L, 1L)), asked);
    assertEquals(List.of("2@r#1"), hosts(locations.get(List.of(500L, 2L), "r", this::scm)),
        "a container SCM does not know is left out, as SCM leaves it out");
  }

  @Test
  void eachReaderHostHasItsOwnOrder() {
    ContainerLocations locations = new ContainerLocations(clock, Duration.ofSeconds(10), 100);
    locations.get(List.of(1L), "a", this::scm);
    assertEquals(List.of("1@b#2"), hosts(locations.get(List.of(1L), "b", this::scm)));
  }

  @Test
  void aZeroTtlAsksScmEveryTime() {
    ContainerLocations locations = new ContainerLocations(clock, Duration.ZERO, 100);
    locations.get(List.of(1L), "r", this::scm);
    locations.get(List.of(1L), "r", this::scm);
    assertEquals(2, asked.size());
  }

  @Test
  void pastItsSizeTheCacheStartsAfreshAndStillAnswersEverything() {
    ContainerLocations locations = new ContainerLocations(clock, Duration.ofSeconds(10), 2);
    locations.get(List.of(1L, 2L), "r", this::scm);
    assertEquals(List.of("1@r#1", "3@r#2"), hosts(locations.get(List.of(1L, 3L), "r", this::scm)));
    locations.get(List.of(3L), "r", this::scm);
    assertEquals(2, asked.size(), "3 was kept after the cache emptied");
  }
}
