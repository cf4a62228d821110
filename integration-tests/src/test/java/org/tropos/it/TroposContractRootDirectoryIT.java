package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractTestUtils;
import org.junit.Assert;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.ExternalResource;

/**
 * Hadoop's RootDirectory contract against tropos:// (options in contract/tropos.xml). Two of its tests put a
 * file straight under "/", where tropos:// has volumes only; they run here with the file in a bucket instead.
 */
public class TroposContractRootDirectoryIT extends AbstractContractRootDirectoryTest {
  @ClassRule
  public static final ExternalResource CLUSTER = TroposContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new TroposContract(conf);
  }

  @Override
  @Test
  public void testRmNonEmptyRootDirNonRecursive() throws Throwable {
    FileSystem fs = getFileSystem();
    Path file = new Path("/rootvol/rootbucket/file");
    ContractTestUtils.touch(fs, file);
    Assert.assertThrows(PathIsNotEmptyDirectoryException.class, () -> fs.delete(new Path("/"), false));
    ContractTestUtils.assertPathExists(fs, "a non-recursive delete of / kept", file);
  }

  @Override
  @Test
  public void testRmRootRecursive() throws Throwable {
    FileSystem fs = getFileSystem();
    Path file = new Path("/rootvol/rootbucket/dir/file");
    ContractTestUtils.touch(fs, file);
    Assert.assertTrue(fs.delete(new Path("/"), true));
    ContractTestUtils.assertPathDoesNotExist(fs, "a recursive delete of / removed", file);
    ContractTestUtils.assertPathExists(fs, "the root stays", new Path("/"));
    Assert.assertEquals(0, fs.listStatus(new Path("/")).length);
  }
}
