package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's ContentSummary contract against tropos:// (options in contract/tropos.xml). */
public class TroposContractContentSummaryIT extends AbstractContractContentSummaryTest {
  @ClassRule
  public static final ExternalResource CLUSTER = TroposContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new TroposContract(conf);
  }
}
