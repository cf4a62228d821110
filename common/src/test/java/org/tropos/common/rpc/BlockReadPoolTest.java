package org.tropos.common.rpc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.ManualClock;

/**
 * Which connections the read pool hands out again, against a real listening socket standing in for a read server
 * (the pool only connects and checks the connection; reads over it are the datanode's tests).
 */
class BlockReadPoolTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final ManualClock clock = new ManualClock();
  private final List<Socket> accepted = new ArrayList<>();
  private ServerSocket server;
  private HostPort address;

  @BeforeEach
  void listen() throws Exception {
    server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    address = new HostPort("127.0.0.1", server.getLocalPort());
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket s : accepted) {
      s.close();
    }
    server.close();
  }

  @Test
  void aReleasedConnectionIsReusedWhileItIsOpenQuietAndFresh() throws Exception {
    try (BlockReadPool pool = new BlockReadPool(TIMEOUT, TransportSecurity.plaintext(), 4, Duration.ofMinutes(1), clock)) {
      BlockReadClient first = pool.borrow(address);
      accept();
      pool.release(first);
      assertSame(first, pool.borrow(address), "an idle, open connection is reused");
      pool.release(first);

      clock.advance(Duration.ofMinutes(2));
      BlockReadClient afterIdle = pool.borrow(address);
      assertNotSame(first, afterIdle, "one idle past the limit is closed");
      assertFalse(first.isOpenWithNothingUnread());
      accept();
      pool.release(afterIdle);

      accepted.get(1).close();
      BlockReadClient afterServerClosed = awaitNew(pool, afterIdle);
      accept();
      pool.release(afterServerClosed);

      accepted.get(2).getOutputStream().write(7);
      accepted.get(2).getOutputStream().flush();
      awaitNew(pool, afterServerClosed).close();
    }
  }

  @Test
  void withoutIdleConnectionsEveryReleaseCloses() throws Exception {
    try (BlockReadPool pool = new BlockReadPool(TIMEOUT, TransportSecurity.plaintext(), 0, Duration.ZERO, clock)) {
      BlockReadClient first = pool.borrow(address);
      accept();
      pool.release(first);
      assertFalse(first.isOpenWithNothingUnread());
      BlockReadClient second = pool.borrow(address);
      assertNotSame(first, second);
      second.close();
    }
  }

  @Test
  void closingThePoolClosesItsIdleConnectionsAndLaterReleases() throws Exception {
    BlockReadPool pool = new BlockReadPool(TIMEOUT, TransportSecurity.plaintext(), 4, Duration.ofMinutes(1), clock);
    BlockReadClient idle = pool.borrow(address);
    BlockReadClient busy = pool.borrow(address);
    pool.release(idle);
    pool.close();
    assertFalse(idle.isOpenWithNothingUnread());
    assertTrue(busy.isOpenWithNothingUnread());
    pool.release(busy);
    assertFalse(busy.isOpenWithNothingUnread());
  }

  private void accept() throws Exception {
    accepted.add(server.accept());
  }

  /**
   * The next borrow after the peer's end changed (closed, or a stray byte sent) yields a new connection: the
   * change reaches this side's socket within moments, so borrowing is retried until it has.
   */
  private BlockReadClient awaitNew(BlockReadPool pool, BlockReadClient old) throws Exception {
    for (int i = 0; i < 100; i++) {
      BlockReadClient c = pool.borrow(address);
      if (c != old) {
        return c;
      }
      pool.release(c);
      Thread.sleep(20); // the peer's close reaches this socket through the kernel: polled
    }
    throw new AssertionError("the stale connection kept being handed out");
  }
}
