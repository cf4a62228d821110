package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractStreamIOStatisticsTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.AfterClass;
import org.junit.BeforeClass;

/** Hadoop's StreamIOStatistics contract against tropos:// (options in contract/tropos.xml). */
public class TroposContractStreamIOStatisticsIT extends AbstractContractStreamIOStatisticsTest {
  @BeforeClass
  public static void startTroposCluster() throws Exception {
    TroposContract.startCluster();
  }

  @AfterClass
  public static void stopTroposCluster() throws Exception {
    TroposContract.stopCluster();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new TroposContract(conf);
  }
}
