package org.tropos.tools.cli.sh;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.tropos.client.TroposClient;
import org.tropos.client.KeyInputStream;
import org.tropos.client.KeyOutputStream;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.OpenKeyRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tropos sh key put|get|cat|info|list|delete|rename}. */
@Command(name = "key", mixinStandardHelpOptions = true, description = "Keys.",
    subcommands = {KeyCommands.Put.class, KeyCommands.Get.class, KeyCommands.Cat.class, KeyCommands.Info.class,
        KeyCommands.ListKeys.class, KeyCommands.Delete.class, KeyCommands.Rename.class, AclCommands.GetAcl.class,
        AclCommands.SetAcl.class, AclCommands.AddAcl.class, AclCommands.RemoveAcl.class})
public final class KeyCommands {
  private static final int BUFFER = 1 << 20;

  abstract static class OnKey extends ShCall {
    @Parameters(index = "0", paramLabel = "KEY", description = "/volume/bucket/key")
    String key;

    @Override
    OzonePath path() {
      return OzonePath.parse(key).requireKey();
    }
  }

  @Command(name = "put", mixinStandardHelpOptions = true, description = "Write a local file as a key.")
  static final class Put extends OnKey {
    @Parameters(index = "1", paramLabel = "FILE")
    Path file;

    @Mixin
    ReplicationOptions replication = new ReplicationOptions();

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath p = path();
      long size = Files.size(file);
      OpenKeyRequest.Builder request = OpenKeyRequest.newBuilder().setVolume(p.volume()).setBucket(p.bucket())
          .setKey(p.key()).setSize(size).setCreateParents(true);
      replication.ec().ifPresentOrElse(request::setEc, () -> request.setFactor(replication.factor()));
      Progress progress = new Progress(spec.commandLine().getErr(), size);
      try (InputStream in = Files.newInputStream(file); KeyOutputStream key = client.createKey(request.build())) {
        byte[] buffer = new byte[BUFFER];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          key.write(buffer, 0, n);
          progress.add(n);
        }
      }
      progress.finish();
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Read a key into a local file.")
  static final class Get extends OnKey {
    @Parameters(index = "1", paramLabel = "FILE")
    Path file;

    @Option(names = {"-f", "--force"}, description = "Overwrite FILE if it exists.")
    boolean force;

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath p = path();
      if (Files.exists(file) && !force) {
        throw new IllegalArgumentException(file + " exists: use --force to overwrite it");
      }
      try (KeyInputStream in = client.readKey(p.volume(), p.bucket(), p.key());
          OutputStream local = Files.newOutputStream(file, StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        copy(in, local, new Progress(spec.commandLine().getErr(), in.length()));
      }
    }
  }

  @Command(name = "cat", mixinStandardHelpOptions = true, description = "Print a key's bytes.")
  static final class Cat extends OnKey {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath p = path();
      out.flush();
      try (KeyInputStream in = client.readKey(p.volume(), p.bucket(), p.key())) {
        copy(in, System.out, new Progress(spec.commandLine().getErr(), 0));
      }
      System.out.flush();
    }
  }

  private static void copy(InputStream in, OutputStream out, Progress progress) throws java.io.IOException {
    byte[] buffer = new byte[BUFFER];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      out.write(buffer, 0, n);
      progress.add(n);
    }
    progress.finish();
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "Show a key (or directory).")
  static final class Info extends OnKey {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath p = path();
      out.println(Json.key(client.getFileStatus(p.volume(), p.bucket(), p.key())));
    }
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
      description = "List a bucket's keys (in an FSO bucket, its files by full path).")
  static final class ListKeys extends ShCall {
    @Parameters(paramLabel = "BUCKET", description = "/volume/bucket")
    String bucket;

    @Option(names = {"-p", "--prefix"}, defaultValue = "", description = "Only keys starting with this.")
    String prefix;

    @Override
    OzonePath path() {
      return OzonePath.parse(bucket).requireBucket();
    }

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath p = path();
      String after = "";
      ListKeysResponse page;
      do {
        page = client.listKeys(p.volume(), p.bucket(), prefix, after, 0);
        for (KeyInfo k : page.getKeysList()) {
          out.println(Json.key(k));
          after = k.getName();
        }
      } while (page.getTruncated());
    }
  }

  @Command(name = "delete", aliases = "rm", mixinStandardHelpOptions = true, description = "Delete a key.")
  static final class Delete extends OnKey {
    @Option(names = {"-r", "--recursive"}, description = "FSO: also a non-empty directory.")
    boolean recursive;

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath p = path();
      client.deleteKey(p.volume(), p.bucket(), p.key(), recursive);
      out.println("Key " + p.key() + " is deleted");
    }
  }

  @Command(name = "rename", mixinStandardHelpOptions = true, description = "Rename a key: BUCKET FROM TO.")
  static final class Rename extends ShCall {
    @Parameters(index = "0", paramLabel = "BUCKET", description = "/volume/bucket")
    String bucket;

    @Parameters(index = "1", paramLabel = "FROM")
    String from;

    @Parameters(index = "2", paramLabel = "TO")
    String to;

    @Override
    OzonePath path() {
      return OzonePath.parse(bucket).requireBucket();
    }

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      client.renameKey(path().volume(), path().bucket(), from, to);
      out.println("Key " + from + " is renamed to " + to);
    }
  }
}
