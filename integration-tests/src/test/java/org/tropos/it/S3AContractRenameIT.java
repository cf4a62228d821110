package org.tropos.it;

import static org.apache.hadoop.fs.contract.ContractTestUtils.dataset;
import static org.apache.hadoop.fs.contract.ContractTestUtils.writeDataset;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.Assert;
import org.junit.Assume;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.ExternalResource;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/** Hadoop's Rename contract against s3a:// on the gateway, in an S3 bucket and in a linked FSO bucket. */
@RunWith(Parameterized.class)
public class S3AContractRenameIT extends AbstractContractRenameTest {
  @ClassRule
  public static final ExternalResource CLUSTER = S3AContract.cluster();

  private final S3AContract.Bucket bucket;

  public S3AContractRenameIT(S3AContract.Bucket bucket) {
    this.bucket = bucket;
  }

  @Parameterized.Parameters(name = "{0}")
  public static List<Object[]> buckets() {
    return S3AContract.buckets();
  }

  /** S3A's rules: a rename of a directory onto a directory that has files answers false. */
  @Override
  @Test
  public void testRenameDirIntoExistingDir() throws Throwable {
    FileSystem fs = getFileSystem();
    Path source = path("source");
    byte[] data = dataset(256, 'a', 'z');
    writeDataset(fs, new Path(source, "source-256.txt"), data, data.length, 1024, false);
    Path dest = path("dest");
    writeDataset(fs, new Path(dest, "dest-512.txt"), dataset(512, 'A', 'Z'), 512, 1024, false);
    Assert.assertFalse("a rename onto a directory with files", fs.rename(source, dest));
  }

  /**
   * S3A marks this unsupported in a bucket of objects, where nothing stops a key under a file's name; a linked FSO
   * bucket refuses it, as the contract expects.
   */
  @Override
  @Test
  public void testRenameFileUnderFileSubdir() throws Exception {
    Assume.assumeTrue("S3A: a rename under a file is allowed", bucket == S3AContract.Bucket.LINKED_FSO);
    super.testRenameFileUnderFileSubdir();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3AContract(conf, bucket);
  }
}
