package org.tropos.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;
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

  @ClassRule
  public static final ExternalResource CLUSTER = TroposContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new TroposContract(conf);
  }
}
