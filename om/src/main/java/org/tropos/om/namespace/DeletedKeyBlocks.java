package org.tropos.om.namespace;

import java.util.List;
import org.tropos.proto.om.KeyBlock;

/** A deleted key's row in {@code deletedKeys} and the blocks of it that nothing references any more. */
public record DeletedKeyBlocks(byte[] rowKey, List<KeyBlock> blocks) {
}
