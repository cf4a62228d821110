package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's Append contract against tropos:// (options in contract/tropos.xml). */
public class TroposContractAppendIT extends AbstractContractAppendTest {
  @ClassRule
  public static final ExternalResource CLUSTER = TroposContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new TroposContract(conf);
  }
}
