package org.tropos.it;

import org.junit.ClassRule;
import org.junit.rules.ExternalResource;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/**
 * Every Hadoop FileSystem contract class for {@code s3a://} on the gateway ({@code S3AContract*IT}) on one cluster,
 * started once for all of them: a cluster per class took longer to start than the class's tests ran. Failsafe runs
 * these classes only here (the module's pom excludes them on their own).
 */
@RunWith(Suite.class)
@Suite.SuiteClasses({
    S3AContractContentSummaryIT.class,
    S3AContractCreateIT.class,
    S3AContractDeleteIT.class,
    S3AContractEtagIT.class,
    S3AContractGetFileStatusIT.class,
    S3AContractMkdirIT.class,
    S3AContractMultipartUploaderIT.class,
    S3AContractOpenIT.class,
    S3AContractRenameIT.class,
    S3AContractRootDirectoryIT.class,
    S3AContractSeekIT.class,
    S3AContractUnbufferIT.class})
public class HadoopContractOnS3AIT {
  @ClassRule
  public static final ExternalResource CLUSTER = S3AContract.cluster();
}
