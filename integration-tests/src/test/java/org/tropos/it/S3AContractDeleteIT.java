package org.tropos.it;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractTestUtils;
import org.junit.Assert;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.ExternalResource;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/** Hadoop's Delete contract against s3a:// on the gateway, in an S3 bucket and in a linked FSO bucket. */
@RunWith(Parameterized.class)
public class S3AContractDeleteIT extends AbstractContractDeleteTest {
  @ClassRule
  public static final ExternalResource CLUSTER = S3AContract.cluster();

  private final S3AContract.Bucket bucket;

  public S3AContractDeleteIT(S3AContract.Bucket bucket) {
    this.bucket = bucket;
  }

  @Parameterized.Parameters(name = "{0}")
  public static List<Object[]> buckets() {
    return S3AContract.buckets();
  }

  /**
   * Beyond the contract: a recursive delete of a tree that spans several of S3A's bulk-delete pages, so that the
   * marker of a directory is deleted in one page and its files in a later one, leaves nothing behind.
   */
  @Test
  public void testDeleteTreeSpanningBulkDeletePages() throws Throwable {
    Configuration conf = new Configuration(getFileSystem().getConf());
    conf.setInt("fs.s3a.bulk.delete.page.size", 5);
    try (FileSystem fs = FileSystem.newInstance(getFileSystem().getUri(), conf)) {
      Path table = path("table");
      for (int partition = 0; partition < 3; partition++) {
        for (int file = 0; file < 7; file++) {
          ContractTestUtils.touch(fs, new Path(table, "p=" + partition + "/f" + file));
        }
      }
      fs.mkdirs(new Path(table, "empty"));
      Assert.assertTrue(fs.delete(table, true));
      ContractTestUtils.assertPathDoesNotExist(fs, "a deleted tree", table);
    }
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3AContract(conf, bucket);
  }
}
