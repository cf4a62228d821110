package org.tropos.common.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.tropos.proto.datanode.DatanodeResult;

class RaftRefusalTest {
  /** Ratis rebuilds the refusal on the client from its class name and message alone, through the (String) one. */
  @Test
  void theResultSurvivesBeingRebuiltFromTheMessage() throws Exception {
    RaftRefusal sent = RaftRefusal.of(new DatanodeException(DatanodeResult.DISK_FULL, "dn1: volume /d1 is full"));
    RaftRefusal received = RaftRefusal.class.getConstructor(String.class).newInstance(sent.getMessage());
    DatanodeException refusal = received.toDatanodeException();
    assertEquals(DatanodeResult.DISK_FULL, refusal.result());
    assertEquals("dn1: volume /d1 is full", refusal.getMessage());
  }

  @Test
  void aMessageNamingNoResultIsAnInternalError() {
    DatanodeException refusal = new RaftRefusal("something: else").toDatanodeException();
    assertEquals(DatanodeResult.INTERNAL_ERROR, refusal.result());
    assertEquals("something: else", refusal.getMessage());
  }
}
