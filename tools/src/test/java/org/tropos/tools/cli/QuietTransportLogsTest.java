package org.tropos.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;

/** The libraries' logs go off while any client command runs and come back, as configured, after the last. */
class QuietTransportLogsTest {
  @Test
  void librariesGoQuietUntilTheLastCommandEndsAndOursStayOn() {
    Logger grpc = Logger.getLogger("io.grpc");
    Level grpcBefore = grpc.getLevel();
    org.apache.logging.log4j.Logger ratis = LogManager.getLogger("org.apache.ratis.server.RaftServer");
    org.apache.logging.log4j.Logger ours = LogManager.getLogger("org.tropos.client.BlockStreamWriter");
    assertTrue(ratis.isWarnEnabled(), "log4j2-test.xml logs WARN");

    QuietTransportLogs first = QuietTransportLogs.start();
    QuietTransportLogs second = QuietTransportLogs.start();
    assertEquals(Level.OFF, grpc.getLevel());
    assertFalse(ratis.isErrorEnabled());
    assertTrue(ours.isWarnEnabled(), "our client's warnings stay on");

    first.close();
    first.close();
    assertFalse(ratis.isErrorEnabled(), "a second close of one command does not end the other's quiet");
    assertEquals(Level.OFF, grpc.getLevel());

    second.close();
    assertEquals(grpcBefore, grpc.getLevel());
    assertTrue(ratis.isWarnEnabled());
  }
}
