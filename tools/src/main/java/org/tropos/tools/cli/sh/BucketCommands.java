package org.tropos.tools.cli.sh;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.DataSize;
import org.tropos.proto.om.BucketEncryption;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tropos sh bucket create|link|info|list|update|delete} and its ACL commands. */
@Command(name = "bucket", mixinStandardHelpOptions = true, description = "Buckets.",
    subcommands = {BucketCommands.Create.class, BucketCommands.Link.class, BucketCommands.Info.class,
        BucketCommands.ListBuckets.class, BucketCommands.Update.class, BucketCommands.Delete.class,
        AclCommands.GetAcl.class, AclCommands.SetAcl.class, AclCommands.AddAcl.class, AclCommands.RemoveAcl.class})
public final class BucketCommands {
  abstract static class OnBucket extends ShCall {
    @Parameters(paramLabel = "BUCKET", description = "/volume/bucket")
    String bucket;

    @Override
    OzonePath path() {
      return OzonePath.parse(bucket).requireBucket();
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a bucket.")
  static final class Create extends OnBucket {
    @Option(names = {"-l", "--layout"}, description = "FILE_SYSTEM_OPTIMIZED or OBJECT_STORE (default: the OM's).")
    BucketLayout layout;

    @Mixin
    ReplicationOptions replication = new ReplicationOptions();

    @Option(names = "--quota", description = "Most bytes it may hold, e.g. 1TB (default: none).")
    String quota;

    @Option(names = {"-u", "--user"}, description = "Owner (default: the volume's).")
    String owner = "";

    @Option(names = {"-e", "--encryption"}, paramLabel = "AES256|aws:kms", description = "Encrypt every key"
        + " written to it at rest: AES256 (SSE-S3: a data key per key, wrapped by the cluster's master key; a secure"
        + " cluster only) or aws:kms (SSE-KMS, under --bucketkey).")
    String encryption;

    @Option(names = {"-k", "--bucketkey"}, paramLabel = "KEY", description = "The KMS key (of"
        + " hadoop.security.key.provider.path) its keys' data keys are made under: SSE-KMS, as Ozone's bucket"
        + " encryption key.")
    String bucketKey;

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      BucketInfo.Builder request = BucketInfo.newBuilder().setVolume(path().volume()).setName(path().bucket())
          .setOwner(owner).setQuotaBytes(quota == null ? 0 : DataSize.parse(quota).bytes());
      if (encryption != null || bucketKey != null) {
        request.setEncryption(defaultEncryption(encryption, bucketKey).orElseThrow(() -> new IllegalArgumentException(
            "--encryption of a new bucket is AES256 or aws:kms")));
      }
      if (layout != null) {
        request.setLayout(layout);
      }
      replication.ec().ifPresentOrElse(request::setEc, () -> request.setFactor(replication.factor()));
      out.println(Json.bucket(client.createBucket(request.build())));
    }
  }

  @Command(name = "link", mixinStandardHelpOptions = true, description = {"Create a bucket that shows another"
      + " bucket's keys, e.g. to expose /vol1/data to S3 as /s3v/data.", "Deleting the link leaves the source as"
      + " it is."})
  static final class Link extends ShCall {
    @Parameters(index = "0", paramLabel = "SOURCE", description = "/volume/bucket to show")
    String source;

    @Parameters(index = "1", paramLabel = "LINK", description = "/volume/bucket to create")
    String link;

    @Option(names = {"-u", "--user"}, description = "Owner of the link (default: its volume's).")
    String owner = "";

    @Override
    OzonePath path() {
      return OzonePath.parse(link).requireBucket();
    }

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      OzonePath from = OzonePath.parse(source).requireBucket();
      out.println(Json.bucket(client.createBucket(BucketInfo.newBuilder().setVolume(path().volume())
          .setName(path().bucket()).setOwner(owner).setSourceVolume(from.volume()).setSourceBucket(from.bucket())
          .build())));
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "Show a bucket and its usage.")
  static final class Info extends OnBucket {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      out.println(Json.bucket(client.getBucket(path().volume(), path().bucket())));
    }
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true, description = "List a volume's buckets.")
  static final class ListBuckets extends ShCall {
    @Parameters(paramLabel = "VOLUME", description = "/volume")
    String volume;

    @Option(names = {"-p", "--prefix"}, defaultValue = "", description = "Only names starting with this.")
    String prefix;

    @Override
    OzonePath path() {
      return OzonePath.parse(volume).requireVolume();
    }

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      for (BucketInfo b : client.listBuckets(path().volume(), prefix)) {
        out.println(Json.bucket(b));
      }
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true, description = "Change a bucket's settings.")
  static final class Update extends OnBucket {
    @Option(names = {"-e", "--encryption"}, paramLabel = "AES256|aws:kms|NONE", required = true, description =
        "Encrypt keys written from now on at rest (AES256: SSE-S3; aws:kms: SSE-KMS under --bucketkey), or not"
        + " (NONE); keys written before keep theirs.")
    String encryption;

    @Option(names = {"-k", "--bucketkey"}, paramLabel = "KEY", description = "The KMS key of aws:kms.")
    String bucketKey;

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      SetBucketPropertiesRequest.Builder request = SetBucketPropertiesRequest.newBuilder().setVolume(path().volume())
          .setName(path().bucket()).setSetEncryption(true);
      defaultEncryption(encryption, bucketKey).ifPresent(request::setEncryption);
      out.println(Json.bucket(client.setBucketProperties(request.build())));
    }
  }

  /**
   * A bucket's default encryption as named on the command line: AES256 (SSE-S3), aws:kms (SSE-KMS, the default
   * when only a bucket key is named) under {@code bucketKey}, or NONE (empty).
   */
  private static Optional<BucketEncryption> defaultEncryption(String name, String bucketKey) {
    String kind = name == null ? "AWS:KMS" : name.toUpperCase(Locale.ROOT);
    boolean kms = kind.equals("AWS:KMS") || kind.equals("SSE_KMS");
    if (kms != (bucketKey != null)) {
      throw new IllegalArgumentException(kms ? "--encryption aws:kms names its KMS key with --bucketkey"
          : "--bucketkey is for --encryption aws:kms");
    }
    return switch (kind) {
      case "AES256", "SSE_S3" -> Optional.of(BucketEncryption.newBuilder().setKind(EncryptionKind.SSE_S3).build());
      case "AWS:KMS", "SSE_KMS" -> Optional.of(BucketEncryption.newBuilder().setKind(EncryptionKind.SSE_KMS)
          .setKmsKeyId(bucketKey).build());
      case "NONE" -> Optional.empty();
      default -> throw new IllegalArgumentException("--encryption is AES256 (SSE-S3), aws:kms (SSE-KMS) or NONE,"
          + " not " + name);
    };
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete an empty bucket.")
  static final class Delete extends OnBucket {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      client.deleteBucket(path().volume(), path().bucket());
      out.println("Bucket " + path().volume() + "/" + path().bucket() + " is deleted");
    }
  }
}
