package org.tropos.om.kms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HadoopKmsTest {
  @Test
  void aProviderPathNamesTheKmsAsHadoopNamesIt() {
    assertTrue(HadoopKms.of("", "om").isEmpty(), "none named: no KMS");
    assertEquals("Hadoop KMS [http://kms1:9600/kms]", HadoopKms.of("kms://http@kms1:9600/kms", "om").orElseThrow()
        .toString());
    assertEquals("Hadoop KMS [https://a:9600/kms, https://b:9600/kms]", HadoopKms.of(" kms://https@a;b:9600/kms ",
        "om").orElseThrow().toString(), "hosts separated by ';' share the port");
    for (String wrong : new String[] {"http://kms1:9600/kms", "kms://kms1:9600/kms", "kms://ftp@kms1:9600/kms",
        "jceks://file@/tmp/keys.jceks"}) {
      assertThrows(IllegalArgumentException.class, () -> HadoopKms.of(wrong, "om"), wrong);
    }
  }
}
