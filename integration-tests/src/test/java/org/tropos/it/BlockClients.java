package org.tropos.it;

import java.util.IdentityHashMap;
import java.util.Map;
import org.tropos.client.BlockClient;
import org.tropos.common.rpc.ScmBlockClient;

/**
 * The raw-block clients of one test, one per SCM client it opens, so that its writers share pipeline clients as a
 * process's writers do; replicas are ordered as seen from 127.0.0.1. Closed after the test.
 */
final class BlockClients implements AutoCloseable {
  private final Map<ScmBlockClient, BlockClient> clients = new IdentityHashMap<>();

  synchronized BlockClient over(ScmBlockClient scm) {
    return clients.computeIfAbsent(scm, s -> BlockClient.over(s, "127.0.0.1"));
  }

  @Override
  public synchronized void close() {
    clients.values().forEach(BlockClient::close);
    clients.clear();
  }
}
