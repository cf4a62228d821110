package org.tropos.common.ratis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import org.apache.ratis.thirdparty.io.netty.buffer.ByteBufAllocator;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.ClientAuth;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.OpenSsl;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContextBuilder;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.SystemClock;

/** A Raft port's TLS engine decrypts every whole record it is given at once, and the same bytes as before. */
class WholeReadUnwrappingTest {
  private static final int RECORD = 16 * 1024;
  private static final int RECORDS = 4;

  @TempDir
  Path dir;

  @Test
  void oneUnwrapTakesEveryWholeRecordOfARead() throws Exception {
    Assumptions.assumeTrue(OpenSsl.isAvailable(), "OpenSSL (netty-tcnative) does not load here");
    X509Settings settings = X509Settings.from(Configuration.defaults());
    CertificateAuthority ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, "CID-raft",
        SystemClock.INSTANCE);
    TransportSecurity datanode = TransportSecurity.mutual(ServiceCertificates.loadOrObtain(dir.resolve("dn"),
        new CertificateSubject(ServiceRole.DATANODE, "localhost", "CID-raft"), settings, ca.inProcess()));
    SslContext server = RaftTls.serverContext(datanode, ClientAuth.REQUIRE);
    SslContext client = SslContextBuilder.forClient().keyManager(datanode.keyManager().orElseThrow())
        .trustManager(datanode.trustManager(ServiceRole.DATANODE)).build();
    byte[] data = new byte[RECORD * RECORDS];
    new Random(7).nextBytes(data);

    SSLEngine batched = server.newEngine(ByteBufAllocator.DEFAULT);
    ByteBuffer received = ByteBuffer.allocate(data.length + RECORD);
    SSLEngineResult result = batched.unwrap(records(client, batched, data), received);
    assertEquals(data.length, result.bytesProduced(), "all " + RECORDS + " records in one unwrap");
    assertArrayEquals(data, Arrays.copyOf(received.array(), received.position()));

    // What gRPC's server gets from a plain OpenSSL context: an engine that stops after each record.
    SSLEngine oneByOne = SslContextBuilder.forServer(datanode.keyManager().orElseThrow())
        .sslProvider(SslProvider.OPENSSL).build().newEngine(ByteBufAllocator.DEFAULT);
    ByteBuffer net = records(client, oneByOne, data);
    received.clear();
    assertEquals(RECORD, oneByOne.unwrap(net, received).bytesProduced());
    assertTrue(net.hasRemaining());
  }

  /** Shakes hands between a new client engine and {@code server}; the client's {@code data} in 16 KiB records. */
  private static ByteBuffer records(SslContext client, SSLEngine server, byte[] data) throws SSLException {
    SSLEngine sender = client.newEngine(ByteBufAllocator.DEFAULT, "localhost", 0);
    ByteBuffer toServer = ByteBuffer.allocate(data.length * 2);
    ByteBuffer toClient = ByteBuffer.allocate(data.length * 2);
    sender.beginHandshake();
    server.beginHandshake();
    for (int round = 0; round < 50 && (shaking(sender) || shaking(server)); round++) {
      step(sender, toClient, toServer);
      step(server, toServer, toClient);
    }
    step(sender, toClient, toServer);
    // The first record after the handshake ends it on the server's side; the data follows.
    sender.wrap(ByteBuffer.wrap(new byte[1]), toServer);
    step(server, toServer, toClient);
    assertEquals(0, toServer.position(), "nothing of the handshake left over for the server");
    for (int at = 0; at < data.length; at += RECORD) {
      sender.wrap(ByteBuffer.wrap(data, at, RECORD), toServer);
    }
    return toServer.flip();
  }

  private static boolean shaking(SSLEngine engine) {
    HandshakeStatus status = engine.getHandshakeStatus();
    return status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED;
  }

  /** Reads what {@code engine} was sent, then writes what it has to say. */
  private static void step(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws SSLException {
    ByteBuffer ignored = ByteBuffer.allocate(RECORD * 2);
    in.flip();
    while (in.hasRemaining() && engine.unwrap(in, ignored).bytesConsumed() > 0) {
      runTasks(engine);
    }
    in.compact();
    runTasks(engine);
    while (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
      engine.wrap(ByteBuffer.allocate(0), out);
      runTasks(engine);
    }
  }

  private static void runTasks(SSLEngine engine) {
    for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
      task.run();
    }
  }
}
