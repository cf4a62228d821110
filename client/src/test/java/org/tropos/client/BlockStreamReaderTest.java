package org.tropos.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.io.ByteSink;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.GrpcServer;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.NamedThreadFactory;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.ReadBlockRequest;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.GetContainersResponse;
import org.tropos.proto.scm.ReportBadReplicaRequest;
import org.tropos.proto.scm.ReportBadReplicaResponse;
import org.tropos.proto.scm.ScmBlockServiceGrpc;

/**
 * The block reader against datanodes played by scripted read servers on loopback sockets (speaking the read
 * protocol: a ReadBlock request, a header with the range's checksums, the bytes) and SCM played by a gRPC server:
 * which replica a read goes to, and how it goes on from the exact offset reached when one serves corrupt bytes or
 * drops the connection.
 */
class BlockStreamReaderTest {
  private static final int BYTES_PER_CHECKSUM = 16 << 10;
  private static final BlockId BLOCK = BlockId.newBuilder().setContainerId(7).setLocalId(1).build();
  private static final int MB = 1 << 20;

  private final byte[] block = new byte[3 * MB + 12_345];
  private final List<ScriptedDatanode> datanodes = new ArrayList<>();
  private final List<ReportBadReplicaRequest> reports = new CopyOnWriteArrayList<>();
  private GrpcServer scm;
  private ScmBlockClient scmClient;

  BlockStreamReaderTest() {
    new Random(44).nextBytes(block);
  }

  @AfterEach
  void stop() throws IOException {
    for (ScriptedDatanode datanode : datanodes) {
      datanode.close();
    }
    if (scmClient != null) {
      scmClient.close();
    }
    if (scm != null) {
      scm.close();
    }
  }

  @Test
  void aRangeIsReadFromTheFirstReplicaOnly() throws Exception {
    ScriptedDatanode first = datanode(Fault.NONE);
    ScriptedDatanode second = datanode(Fault.NONE);
    assertArrayEquals(Arrays.copyOfRange(block, 100, 100 + 2 * MB + 500), read(100, 2 * MB + 500, first, second));
    assertEquals(List.of(100L), first.requestedOffsets);
    assertEquals(List.of(), second.requestedOffsets);
  }

  @Test
  void aCorruptReplicaIsReportedAndTheReadGoesOnFromTheNextAtTheExactOffset() throws Exception {
    ScriptedDatanode corrupt = datanode(Fault.CORRUPT_SECOND_MB);
    ScriptedDatanode sound = datanode(Fault.NONE);
    assertArrayEquals(block, read(0, block.length, corrupt, sound));
    // The first megabyte passed its checksums and was handed on; the rest came from the next replica.
    assertEquals(List.of((long) MB), sound.requestedOffsets);
    assertEquals(1, reports.size(), reports.toString());
    assertEquals(BLOCK, reports.get(0).getBlockId());
    assertEquals(corrupt.id, Uuids.fromProto(reports.get(0).getDatanode()));
  }

  @Test
  void aReplicaDroppingTheConnectionMidResponseIsLeftForTheNext() throws Exception {
    ScriptedDatanode dropping = datanode(Fault.CLOSE_AFTER_ONE_AND_A_HALF_MB);
    ScriptedDatanode sound = datanode(Fault.NONE);
    assertArrayEquals(block, read(0, block.length, dropping, sound));
    assertEquals(List.of((long) MB), sound.requestedOffsets);
    assertEquals(List.of(), reports, "a dropped connection is not a corrupt replica");
  }

  @Test
  void whenEveryReplicaFailsTheReadFailsNamingTheBlockAndTheLastError() throws Exception {
    ScriptedDatanode first = datanode(Fault.IO_ERROR);
    ScriptedDatanode second = datanode(Fault.IO_ERROR);
    IOException failed = assertThrows(IOException.class, () -> read(0, block.length, first, second));
    assertTrue(failed.getMessage().startsWith("no replica of block 7:1:" + block.length), failed.getMessage());
    assertTrue(failed.getMessage().contains("disk failed"), failed.getMessage());
    assertEquals(List.of(0L), first.requestedOffsets);
    assertEquals(List.of(0L), second.requestedOffsets, "each replica tried once: SCM knows no other");
  }

  private byte[] read(long offset, long length, ScriptedDatanode... replicas) throws IOException {
    List<DatanodeDetails> listed = Arrays.stream(replicas).map(ScriptedDatanode::details).toList();
    startScm(listed);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteSink sink = bytes -> {
      byte[] copy = new byte[bytes.remaining()];
      bytes.get(copy);
      out.write(copy, 0, copy.length);
    };
    new BlockStreamReader(scmClient, "127.0.0.1").read(new BlockLocation(BLOCK, block.length), listed, offset,
        length, sink);
    return out.toByteArray();
  }

  /** SCM, which knows the replicas listed and takes reports of corrupt ones. */
  private void startScm(List<DatanodeDetails> replicas) throws IOException {
    scm = new GrpcServer("scm", new HostPort("127.0.0.1", 0), 1, List.of(new ScmBlockServiceGrpc
        .ScmBlockServiceImplBase() {
      @Override
      public void getContainers(GetContainersRequest request, StreamObserver<GetContainersResponse> response) {
        response.onNext(GetContainersResponse.newBuilder().addContainers(ContainerInfo.newBuilder()
            .setContainerId(BLOCK.getContainerId()).addAllReplicas(replicas)).build());
        response.onCompleted();
      }

      @Override
      public void reportBadReplica(ReportBadReplicaRequest request,
          StreamObserver<ReportBadReplicaResponse> response) {
        reports.add(request);
        response.onNext(ReportBadReplicaResponse.getDefaultInstance());
        response.onCompleted();
      }
    }));
    scm.start();
    scmClient = new ScmBlockClient(new HostPort("127.0.0.1", scm.port()));
  }

  private ScriptedDatanode datanode(Fault fault) throws IOException {
    ScriptedDatanode datanode = new ScriptedDatanode(fault);
    datanodes.add(datanode);
    return datanode;
  }

  /** What a scripted datanode does wrong, if anything, with every read. */
  private enum Fault {
    NONE, CORRUPT_SECOND_MB, CLOSE_AFTER_ONE_AND_A_HALF_MB, IO_ERROR
  }

  /**
   * A datanode's read server holding {@link #block}: answers each ReadBlock request with the range widened to whole
   * checksum pieces, its checksums, then its bytes, as the real one does, unless its fault says otherwise.
   */
  private final class ScriptedDatanode implements AutoCloseable {
    final UUID id = UUID.randomUUID();
    final List<Long> requestedOffsets = new CopyOnWriteArrayList<>();
    private final Fault fault;
    private final ServerSocket server;

    ScriptedDatanode(Fault fault) throws IOException {
      this.fault = fault;
      this.server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
      new NamedThreadFactory("scripted-datanode", true).newThread(this::serve).start();
    }

    DatanodeDetails details() {
      return DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id)).setHostName("localhost")
          .setIpAddress("127.0.0.1").addPorts(Port.newBuilder().setName(PortName.READ).setValue(server.getLocalPort()))
          .build();
    }

    private void serve() {
      while (!server.isClosed()) {
        try (Socket socket = server.accept()) {
          DataInputStream in = new DataInputStream(socket.getInputStream());
          DataOutputStream out = new DataOutputStream(socket.getOutputStream());
          while (true) {
            byte[] request = new byte[in.readInt()];
            in.readFully(request);
            answer(ReadBlockRequest.parseFrom(request), out);
          }
        } catch (IOException e) {
          // The client closed the connection, or this datanode dropped it: take the next one.
        }
      }
    }

    private void answer(ReadBlockRequest request, DataOutputStream out) throws IOException {
      requestedOffsets.add(request.getOffset());
      if (fault == Fault.IO_ERROR) {
        header(out, ReadBlockResponse.newBuilder().setResult(DatanodeResult.IO_ERROR).setMessage("disk failed")
            .build());
        return;
      }
      long from = request.getOffset() / BYTES_PER_CHECKSUM * BYTES_PER_CHECKSUM;
      long to = Math.min(block.length, (request.getOffset() + request.getLength() + BYTES_PER_CHECKSUM - 1)
          / BYTES_PER_CHECKSUM * BYTES_PER_CHECKSUM);
      byte[] range = Arrays.copyOfRange(block, (int) from, (int) to);
      header(out, ReadBlockResponse.newBuilder().setResult(DatanodeResult.OK).setOffset(from)
          .setLength(range.length).setBlockLength(block.length)
          .setChecksums(Checksums.compute(ByteBuffer.wrap(range), BYTES_PER_CHECKSUM)).build());
      if (fault == Fault.CORRUPT_SECOND_MB) {
        range[(int) (MB + MB / 2 - from)] ^= 1;
      }
      if (fault == Fault.CLOSE_AFTER_ONE_AND_A_HALF_MB) {
        out.write(range, 0, MB + MB / 2);
        out.flush();
        throw new IOException("dropped mid-response");
      }
      out.write(range);
      out.flush();
    }

    private void header(DataOutputStream out, ReadBlockResponse header) throws IOException {
      byte[] bytes = header.toByteArray();
      out.writeInt(bytes.length);
      out.write(bytes);
      out.flush();
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
