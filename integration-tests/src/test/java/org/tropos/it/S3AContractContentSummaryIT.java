package org.tropos.it;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/** Hadoop's ContentSummary contract against s3a:// on the gateway, in an S3 bucket and in a linked FSO bucket. */
@RunWith(Parameterized.class)
public class S3AContractContentSummaryIT extends AbstractContractContentSummaryTest {
  @ClassRule
  public static final ExternalResource CLUSTER = S3AContract.cluster();

  private final S3AContract.Bucket bucket;

  public S3AContractContentSummaryIT(S3AContract.Bucket bucket) {
    this.bucket = bucket;
  }

  @Parameterized.Parameters(name = "{0}")
  public static List<Object[]> buckets() {
    return S3AContract.buckets();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3AContract(conf, bucket);
  }
}
