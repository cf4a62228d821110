package org.tropos.it;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The task of {@link KerberosIT}'s job, run in a JVM of its own as a YARN container runs one: Hadoop security on,
 * no Kerberos ticket, only the token file in {@code HADOOP_TOKEN_FILE_LOCATION}. It upper-cases its input into its
 * output and checks that its token gets it no further token.
 *
 * <p>Arguments: the file system's URI, the cluster's CA certificate file, the input path, the output path.
 */
public final class TokenTask {
  private TokenTask() {
  }

  public static void main(String[] args) throws Exception {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("ozone.security.enabled", "true");
    conf.set("tropos.security.ca.file", args[1]);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    if (user.hasKerberosCredentials()) {
      throw new IllegalStateException("the task must have no Kerberos ticket");
    }
    try (FileSystem fs = FileSystem.newInstance(URI.create(args[0]), conf)) {
      String input;
      try (var in = fs.open(new Path(args[2]))) {
        input = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      try (FSDataOutputStream out = fs.create(new Path(args[3]))) {
        out.write(input.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
      }
      boolean refused;
      try {
        fs.getDelegationToken("yarn");
        refused = false;
      } catch (org.apache.hadoop.security.AccessControlException expected) {
        refused = true;
      }
      if (!refused) {
        throw new IllegalStateException("a task's token got it another token");
      }
    }
    System.out.println("task done without a Kerberos ticket; getDelegationToken refused");
  }
}
