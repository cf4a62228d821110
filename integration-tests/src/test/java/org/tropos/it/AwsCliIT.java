package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.proto.om.S3Secret;

/**
 * The AWS command line and boto3 as a newcomer uses them against the gateway: {@code aws s3 mb/cp/ls/rm} (a
 * multipart {@code cp}), a wrong secret, and boto3's default presigned URL. Needs {@code aws} and {@code boto3}
 * on the machine ({@code .ci/run} installs them from PyPI); skipped without them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsCliIT {
  private static final int MB = 1 << 20;

  private Path dir;
  private S3Cluster cluster;
  private S3Secret secret;

  private record Result(int exit, String output) {
  }

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    Assumptions.assumeTrue(works("aws", "--version"), "the aws command line is not installed");
    Assumptions.assumeTrue(works("python3", "-c", "import boto3"), "boto3 is not installed");
    dir = tempDir;
    cluster = new S3Cluster(dir.resolve("cluster"));
    secret = cluster.secret("newcomer");
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static boolean works(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Result run(String secretKey, String... command) throws Exception {
    List<String> line = new ArrayList<>(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true).directory(dir.toFile());
    Map<String, String> env = builder.environment();
    env.put("AWS_ACCESS_KEY_ID", secret.getAccessId());
    env.put("AWS_SECRET_ACCESS_KEY", secretKey);
    env.put("AWS_DEFAULT_REGION", "us-east-1");
    env.put("AWS_CONFIG_FILE", dir.resolve("no-config").toString());
    env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-credentials").toString());
    Process p = builder.start();
    byte[] output = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", command) + " finishes");
    return new Result(p.exitValue(), new String(output, StandardCharsets.UTF_8));
  }

  private Result aws(String... args) throws Exception {
    List<String> line = new ArrayList<>(List.of("aws", "--endpoint-url", cluster.endpoint().toString()));
    line.addAll(List.of(args));
    return run(secret.getSecret(), line.toArray(String[]::new));
  }

  @Test
  void awsS3CommandsWorkIncludingAMultipartCopy() throws Exception {
    Path local = dir.resolve("upload.bin");
    byte[] data = new byte[40 * MB + 123];
    new Random(5).nextBytes(data);
    Files.write(local, data);
    assertEquals(0, aws("s3", "mb", "s3://cli-bucket").exit());
    Result cp = aws("s3", "cp", local.toString(), "s3://cli-bucket/dir/upload.bin");
    assertEquals(0, cp.exit(), cp.output());
    String etag = cluster.tropos().getKey("s3v", "cli-bucket", "dir/upload.bin").getMetadataMap().get("ETag");
    assertTrue(etag.matches("\"[0-9a-f]{32}-\\d+\""), "a multipart upload's ETag, got " + etag);
    Result ls = aws("s3", "ls", "s3://cli-bucket/dir/");
    assertTrue(ls.output().contains(Integer.toString(data.length)) && ls.output().contains("upload.bin"), ls.output());
    Path back = dir.resolve("download.bin");
    assertEquals(0, aws("s3", "cp", "s3://cli-bucket/dir/upload.bin", back.toString()).exit());
    assertArrayEquals(data, Files.readAllBytes(back));
    assertEquals(0, aws("s3", "rm", "s3://cli-bucket/dir/upload.bin").exit());
    assertEquals("", aws("s3", "ls", "s3://cli-bucket/dir/").output().strip());

    Result wrong = run(secret.getSecret() + "0", "aws", "--endpoint-url", cluster.endpoint().toString(), "s3", "ls");
    assertTrue(wrong.exit() != 0 && wrong.output().contains("SignatureDoesNotMatch"), wrong.output());
  }

  @Test
  void boto3DefaultPresignedGetWorks() throws Exception {
    assertEquals(0, aws("s3", "mb", "s3://shared").exit());
    Path note = dir.resolve("note.txt");
    Files.writeString(note, "presigned by boto3");
    assertEquals(0, aws("s3", "cp", note.toString(), "s3://shared/note.txt").exit());
    String script = "import boto3, os, urllib.request\n"
        + "s3 = boto3.client('s3', endpoint_url='" + cluster.endpoint() + "')\n"
        + "url = s3.generate_presigned_url('get_object', Params={'Bucket': 'shared', 'Key': 'note.txt'},"
        + " ExpiresIn=300)\n"
        + "print(urllib.request.urlopen(url).read().decode())\n";
    Result get = run(secret.getSecret(), "python3", "-c", script);
    assertEquals(0, get.exit(), get.output());
    assertEquals("presigned by boto3", get.output().strip());
  }

  /**
   * A header value that is not ASCII (user metadata set on the request, as ceph/s3-tests does it) goes out as its
   * UTF-8 bytes and is signed as its text: the signature holds (it was refused as SignatureDoesNotMatch), and GET
   * gives the same bytes back.
   */
  @Test
  void boto3NonAsciiMetadataIsSignedAndKept() throws Exception {
    String script = "import boto3\n"
        + "s3 = boto3.client('s3', endpoint_url='" + cluster.endpoint() + "')\n"
        + "s3.create_bucket(Bucket='meta')\n"
        + "def meta(params, **kwargs):\n"
        + "    params['headers']['x-amz-meta-name'] = 'caf\\u00e9 \\u20ac'\n"
        + "s3.meta.events.register('before-call.s3.PutObject', meta)\n"
        + "s3.put_object(Bucket='meta', Key='k', Body=b'x')\n"
        + "raw = s3.head_object(Bucket='meta', Key='k')['Metadata']['name']\n"
        + "print(raw.encode('latin-1').decode('utf-8') == 'caf\\u00e9 \\u20ac')\n";
    Result result = run(secret.getSecret(), "python3", "-c", script);
    assertEquals(0, result.exit(), result.output());
    assertEquals("True", result.output().strip());
  }

  /**
   * A browser-form upload as boto3 presigns it (a Signature V4 policy with a key prefix and a size range), sent
   * as a multipart form by urllib3: the file is stored, and a file over the policy's size is not.
   */
  @Test
  void boto3PresignedPostUploadsWithinItsPolicyOnly() throws Exception {
    String script = "import boto3, botocore, urllib3\n"
        + "s3 = boto3.client('s3', endpoint_url='" + cluster.endpoint() + "')\n"
        + "s3.create_bucket(Bucket='posted')\n"
        + "post = s3.generate_presigned_post('posted', 'inbox/${filename}', Fields={'Content-Type': 'text/plain'},\n"
        + "    Conditions=[{'Content-Type': 'text/plain'}, ['content-length-range', 1, 100]], ExpiresIn=300)\n"
        + "http = urllib3.PoolManager()\n"
        + "def send(name, data):\n"
        + "    return http.request('POST', post['url'], fields={**post['fields'], 'file': (name, data)}).status\n"
        + "print(send('hello.txt', b'posted by boto3'))\n"
        + "print(s3.get_object(Bucket='posted', Key='inbox/hello.txt')['Body'].read().decode())\n"
        + "print(send('big.txt', b'x' * 101))\n"
        + "try:\n"
        + "    s3.head_object(Bucket='posted', Key='inbox/big.txt'); print('stored')\n"
        + "except botocore.exceptions.ClientError as e:\n"
        + "    print(e.response['Error']['Code'])\n";
    Result result = run(secret.getSecret(), "python3", "-c", script);
    assertEquals(0, result.exit(), result.output());
    assertEquals(List.of("204", "posted by boto3", "400", "404"), result.output().strip().lines().toList());
  }

  /**
   * The four requests that once destroyed or invented data, sent by boto3 as a user sends them: each must leave
   * the object, the bucket list and the other keys as they were.
   */
  @Test
  void boto3RequestsThatOnceDestroyedDataChangeNothingTheyShouldNot() throws Exception {
    String script = "import boto3, botocore\n"
        + "s3 = boto3.client('s3', endpoint_url='" + cluster.endpoint() + "')\n"
        + "s3.create_bucket(Bucket='kept')\n"
        + "s3.put_object(Bucket='kept', Key='obj', Body=b'precious')\n"
        + "s3.put_object_acl(Bucket='kept', Key='obj', ACL='private')\n"
        + "for call in (lambda: s3.put_object_legal_hold(Bucket='kept', Key='obj', LegalHold={'Status': 'ON'}),\n"
        + "             lambda: s3.put_object_retention(Bucket='kept', Key='obj', Retention={'Mode': 'GOVERNANCE',"
        + " 'RetainUntilDate': '2099-01-01T00:00:00Z'})):\n"
        + "    try:\n"
        + "        call(); print('accepted')\n"
        + "    except botocore.exceptions.ClientError as e:\n"
        + "        print(e.response['Error']['Code'])\n"
        + "print(s3.get_object(Bucket='kept', Key='obj')['Body'].read().decode())\n"
        + "for call in (lambda: s3.put_bucket_versioning(Bucket='never-made', VersioningConfiguration="
        + "{'Status': 'Enabled'}), lambda: s3.put_bucket_policy(Bucket='never-made', Policy='{}')):\n"
        + "    try:\n"
        + "        call()\n"
        + "    except botocore.exceptions.ClientError as e:\n"
        + "        print(e.response['Error']['Code'])\n"
        + "print([b['Name'] for b in s3.list_buckets()['Buckets'] if b['Name'] == 'never-made'])\n"
        + "for k in ('ws', 'ws '):\n"
        + "    s3.put_object(Bucket='kept', Key=k, Body=k.encode())\n"
        + "s3.delete_objects(Bucket='kept', Delete={'Objects': [{'Key': 'ws '}]})\n"
        + "print(sorted(o['Key'] for o in s3.list_objects_v2(Bucket='kept')['Contents']))\n"
        + "for sub in ('torrent', 'attributes'):\n"
        + "    try:\n"
        + "        body = s3.get_object_torrent(Bucket='kept', Key='obj')['Body'].read() if sub == 'torrent' else"
        + " str(s3.get_object_attributes(Bucket='kept', Key='obj', ObjectAttributes=['ObjectSize']))\n"
        + "        print(sub, 'precious' in str(body))\n"
        + "    except botocore.exceptions.ClientError as e:\n"
        + "        print(sub, e.response['Error']['Code'])\n";
    Result result = run(secret.getSecret(), "python3", "-c", script);
    assertEquals(0, result.exit(), result.output());
    assertEquals(List.of("NotImplemented", "NotImplemented", "precious", "NoSuchBucket", "NoSuchBucket", "[]",
        "['obj', 'ws']", "torrent NotImplemented", "attributes False"), result.output().strip().lines().toList());
  }
}
