package org.tropos.tools.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.tropos.client.BlockClient;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.common.conf.Configuration;
import org.tropos.proto.hdds.ReplicationFactor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tropos admin block put|get}: writes a file as replicated blocks and reads it back, until the Ozone
 * Manager gives data names. {@code put} prints the blocks ({@code container:local:length,...}); {@code get} takes
 * them back.
 */
@Command(name = "block", mixinStandardHelpOptions = true, description = "Write and read raw blocks (testing).",
    subcommands = {BlockCommands.Put.class, BlockCommands.Get.class})
public final class BlockCommands {

  @Command(name = "put", mixinStandardHelpOptions = true,
      description = "Write FILE as blocks; prints the block list that 'block get' reads back.")
  static final class Put implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Option(names = "--factor", defaultValue = "THREE", description = "ONE or THREE (default THREE).")
    ReplicationFactor factor;

    @Parameters(paramLabel = "FILE")
    Path file;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Configuration conf = config.loadForClient();
      List<BlockLocation> blocks;
      try (BlockClient client = BlockClient.connect(conf);
          BlockWriter writer = client.newWriter(BlockWriteSettings.from(conf, factor));
          InputStream in = Files.newInputStream(file)) {
        byte[] buffer = new byte[1 << 20];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          writer.write(ByteBuffer.wrap(buffer, 0, n));
        }
        blocks = writer.finish();
      }
      spec.commandLine().getOut().println(String.join(",", blocks.stream().map(BlockLocation::toString).toList()));
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Read blocks back into OUT.")
  static final class Get implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Parameters(index = "0", paramLabel = "BLOCKS", description = "What 'block put' printed.")
    String blocks;

    @Parameters(index = "1", paramLabel = "OUT")
    Path out;

    @Override
    public Integer call() throws IOException {
      Configuration conf = config.loadForClient();
      List<BlockLocation> locations = Arrays.stream(blocks.split(",")).map(BlockLocation::parse).toList();
      try (BlockClient client = BlockClient.connect(conf);
          OutputStream file = Files.newOutputStream(out)) {
        WritableByteChannel sink = Channels.newChannel(file);
        client.read(locations, verified -> {
          try {
            sink.write(verified);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
      return ExitCodes.OK;
    }
  }
}
