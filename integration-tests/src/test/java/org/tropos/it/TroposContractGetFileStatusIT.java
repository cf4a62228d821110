package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's GetFileStatus contract against tropos:// (options in contract/tropos.xml). */
public class TroposContractGetFileStatusIT extends AbstractContractGetFileStatusTest {
  @ClassRule
  public static final ExternalResource CLUSTER = TroposContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new TroposContract(conf);
  }
}
