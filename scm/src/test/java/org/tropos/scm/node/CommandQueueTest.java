package org.tropos.scm.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.ScmCommand;

class CommandQueueTest {
  private static final UUID NODE = UUID.randomUUID();

  private static ScmCommand close(long container) {
    return ScmCommand.newBuilder().setCloseContainer(CloseContainerCommand.newBuilder().setContainerId(container))
        .build();
  }

  @Test
  void aCommandAlreadyWaitingIsNotQueuedTwice() {
    CommandQueue queue = new CommandQueue();
    for (int round = 0; round < 3; round++) {
      LongStream.rangeClosed(1, 3).forEach(c -> queue.add(NODE, close(c)));
    }
    assertEquals(List.of(close(1), close(2), close(3)), queue.drain(NODE));
    assertEquals(List.of(), queue.drain(NODE));
    queue.add(NODE, close(1));
    assertEquals(List.of(close(1)), queue.drain(NODE), "once taken, a command may be queued again");
  }

  @Test
  void pastTheLimitTheOldestAreDropped() {
    CommandQueue queue = new CommandQueue();
    LongStream.rangeClosed(1, 1500).forEach(c -> queue.add(NODE, close(c)));
    List<ScmCommand> taken = queue.drain(NODE);
    assertEquals(1000, taken.size());
    assertEquals(close(501), taken.get(0));
    assertEquals(close(1500), taken.get(999));
  }
}
