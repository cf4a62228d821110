package org.tropos.it;

import org.junit.ClassRule;
import org.junit.rules.ExternalResource;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/**
 * Every Hadoop FileSystem contract class for {@code tropos://} ({@code TroposContract*IT}) on one cluster,
 * started once for all of them: a cluster per class took longer to start than the class's tests ran. Failsafe runs
 * these classes only here (the module's pom excludes them on their own).
 */
@RunWith(Suite.class)
@Suite.SuiteClasses({
    TroposContractAppendIT.class,
    TroposContractConcatIT.class,
    TroposContractContentSummaryIT.class,
    TroposContractCreateIT.class,
    TroposContractDeleteIT.class,
    TroposContractEtagIT.class,
    TroposContractGetFileStatusIT.class,
    TroposContractMkdirIT.class,
    TroposContractOpenIT.class,
    TroposContractRenameIT.class,
    TroposContractRootDirectoryIT.class,
    TroposContractSeekIT.class,
    TroposContractSetTimesIT.class,
    TroposContractStreamIOStatisticsIT.class,
    TroposContractUnbufferIT.class,
    TroposContractVectoredReadIT.class})
public class HadoopContractOnTroposIT {
  @ClassRule
  public static final ExternalResource CLUSTER = TroposContract.cluster();
}
