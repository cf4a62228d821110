package org.tropos.om.namespace;

import java.io.IOException;
import org.tropos.common.security.SealingKey;

/** Where the OM's sealing key comes from: SCM, asked when first needed. */
@FunctionalInterface
public interface SealingKeySource {
  SealingKey key() throws IOException;
}
