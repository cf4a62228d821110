package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/** Hadoop's VectoredRead contract against tropos:// (options in contract/tropos.xml). */
@RunWith(Parameterized.class)
public class TroposContractVectoredReadIT extends AbstractContractVectoredReadTest {
  /** @param bufferType "direct" or "array": the buffers the reads fill */
  public TroposContractVectoredReadIT(String bufferType) {
    super(bufferType);
  }

  @Parameterized.Parameters(name = "Buffer type : {0}")
  public static java.util.List<String> buffers() {
    return params();
  }

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
