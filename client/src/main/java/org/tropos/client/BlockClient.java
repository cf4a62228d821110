package org.tropos.client;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.conf.Configuration;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.io.ByteSink;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.hdds.DatanodeDetails;

/**
 * Raw blocks, written straight through SCM and the pipelines and read back from the datanodes, without the OM:
 * for {@code tropos admin block}, the write and recovery benchmarks and cluster tests. The bytes take the same path
 * as a key's ({@link TroposClient}), every one verified when read; only the names are missing, so the caller keeps
 * the {@link BlockLocation}s a writer returns.
 *
 * <p>Thread-safe: writers and reads of several threads share one; each {@link BlockWriter} belongs to one thread.
 */
public final class BlockClient implements AutoCloseable {
  private final ScmBlockClient scm;
  /** Whether {@link #close} closes {@link #scm}: only when this client opened it. */
  private final boolean ownsScm;
  private final PipelineClients pipelines;
  private final String clientHost;
  private final EcWrites ecWrites;

  private BlockClient(ScmBlockClient scm, boolean ownsScm, PipelineClients pipelines, String clientHost) {
    this.scm = scm;
    this.ownsScm = ownsScm;
    this.pipelines = pipelines;
    this.clientHost = clientHost;
    this.ecWrites = new EcWrites(scm.security());
  }

  /**
   * Connects to the SCM block service of {@code conf} (ozone.scm.block.client.address, or the SCMs of
   * ozone.scm.service.ids), with the pipeline timeouts it sets; replicas are ordered nearest this host first.
   */
  public static BlockClient connect(Configuration conf) throws IOException {
    TransportSecurity transport = SecuritySettings.userTransport(conf);
    ScmBlockClient scm = new ScmBlockClient(ScmAddresses.blockServices(conf), transport);
    return new BlockClient(scm, true, new PipelineClients(conf, transport), InetAddress.getLocalHost()
        .getHostAddress());
  }

  /**
   * Blocks through {@code scm}, which stays the caller's to close, with the default pipeline timeouts, reaching
   * datanodes as {@code scm} reaches SCM; replicas are ordered nearest {@code clientHost} first.
   */
  public static BlockClient over(ScmBlockClient scm, String clientHost) {
    return new BlockClient(scm, false, new PipelineClients(Configuration.defaults(), scm.security()), clientHost);
  }

  /** A writer of one stream of bytes, as {@code settings} say; close it when done. */
  public BlockWriter newWriter(BlockWriteSettings settings) {
    return new BlockStreamWriter(scm, pipelines, settings);
  }

  /**
   * A writer of one stream of bytes as erasure-coded block groups of {@code config}, with the block size, checksum
   * pieces and retries of {@code settings}; close it when done.
   */
  public BlockWriter newEcWriter(EcReplication config, BlockWriteSettings settings) {
    return ecWrites.newWriter((size, exclude) -> {
      try {
        return scm.allocateEcBlock(size, config, exclude);
      } catch (ScmException e) {
        throw new IOException("cannot allocate an " + config + " block group: " + e.getMessage(), e);
      }
    }, config, settings);
  }

  /** Reads every block in order into {@code sink}, each from the nearest replica SCM knows that serves it. */
  public void read(List<BlockLocation> blocks, ByteSink sink) throws IOException {
    new BlockStreamReader(scm, clientHost).read(blocks, sink);
  }

  /**
   * Reads {@code length} bytes of a block from {@code offset}, trying {@code replicas} in order and resuming on
   * the next one at the exact offset reached; when all of them fail, the other replicas SCM knows are tried too.
   */
  public void read(BlockLocation block, List<DatanodeDetails> replicas, long offset, long length, ByteSink sink)
      throws IOException {
    new BlockStreamReader(scm, clientHost).read(block, replicas, offset, length, sink);
  }

  /** Closes the pipeline clients (and the SCM client if {@link #connect} opened it). */
  @Override
  public void close() {
    ecWrites.close();
    pipelines.close();
    if (ownsScm) {
      scm.close();
    }
  }
}
