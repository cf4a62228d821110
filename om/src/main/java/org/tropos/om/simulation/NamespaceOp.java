package org.tropos.om.simulation;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.NamespaceCheck;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * A request a simulated client sends to the OM, on a few names in one FSO bucket so that requests collide: its
 * answer is written as text that does not depend on object ids or times, so the same request run in another
 * history (the serial run) answers alike when it sees the same namespace.
 */
sealed interface NamespaceOp {
  String VOLUME = "vol1";
  String BUCKET = "fso";

  /** Runs the request on {@code om}; {@code opened} holds the keys this history has opened, by handle. */
  String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException;

  /**
   * Whether its changes commute with every other request's, so that a serial history may place it where it read
   * rather than where it committed: true for the purge, which changes only rows no request reaches (and which
   * validation therefore lets commit what it saw on an older snapshot).
   */
  default boolean placedWhereItRead() {
    return false;
  }

  /** Runs the request and writes its answer, an error as its result code. */
  static String answer(NamespaceOp op, SimulatedOm om, Map<Long, OpenKeyRow> opened) {
    try {
      return op.run(om, opened);
    } catch (OmException e) {
      return e.result().name();
    }
  }

  /**
   * A random request; {@code seq} numbers it (a key's handle, a block id), {@code openedByClient} are the handles
   * the client opened and has not committed (one may be committed now, and is then taken from the list); only
   * the {@code purger} purges deleted directories, as only the OM's one background thread does.
   */
  static NamespaceOp random(Random random, long seq, List<Long> openedByClient, boolean purger) {
    int kind = random.nextInt(20);
    if (kind == 17 && !purger) {
      kind = random.nextInt(17);
    }
    if (kind < 2 && !openedByClient.isEmpty()) {
      return new Commit(openedByClient.remove(random.nextInt(openedByClient.size())), 1 + random.nextInt(9));
    }
    return switch (kind) {
      case 0, 1, 2 -> new Create(file(random), 1 + random.nextInt(9), random.nextBoolean(), seq);
      case 3, 4 -> new Mkdir(path(random));
      case 5, 6 -> new Open(file(random), random.nextBoolean(), seq);
      case 7, 8, 9 -> new Rename(path(random), path(random));
      case 10 -> new Rename(file(random), random.nextBoolean() ? file(random) : path(random));
      case 11, 12 -> new Delete(random.nextBoolean() ? path(random) : file(random), random.nextBoolean());
      case 13, 14 -> new Stat(random.nextBoolean() ? path(random) : file(random));
      case 15, 16 -> new ListDir(path(random));
      case 17 -> new Purge();
      default -> new Check();
    };
  }

  private static String path(Random random) {
    StringBuilder p = new StringBuilder("d" + random.nextInt(3));
    for (int depth = random.nextInt(3); depth > 0; depth--) {
      p.append("/d").append(random.nextInt(3));
    }
    return p.toString();
  }

  private static String file(Random random) {
    return path(random) + "/f" + random.nextInt(3);
  }

  record Mkdir(String path) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      om.namespace.createDirectory(VOLUME, BUCKET, path, "");
      return "ok";
    }
  }

  /** Opens a key to write (nothing stored: the writer carries the open key to its commit). */
  record Open(String key, boolean createParents, long handle) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      opened.put(handle, om.namespace.openKey(request(key, createParents)));
      return "ok";
    }
  }

  /** Commits a key opened before, with one block. */
  record Commit(long handle, long size) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      OpenKeyRow open = opened.get(handle);
      if (open == null) {
        return "never opened";
      }
      om.namespace.commitKey(CommitKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET)
          .setOpenId(open.getOpenId()).setOpenKey(open.toByteString()).setSize(size).addBlocks(block(handle, size))
          .build());
      return "ok";
    }
  }

  /** Opens and commits a key in one request, as a small PUT does. */
  record Create(String key, long size, boolean createParents, long blockId) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      om.namespace.commitKey(CommitKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET)
          .setOpen(request(key, createParents)).setSize(size).addBlocks(block(blockId, size)).build());
      return "ok";
    }
  }

  record Rename(String from, String to) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      om.namespace.renameKey(VOLUME, BUCKET, from, to);
      return "ok";
    }
  }

  record Delete(String path, boolean recursive) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      om.namespace.deleteKey(VOLUME, BUCKET, path, recursive);
      return "ok";
    }
  }

  record Stat(String path) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      KeyInfo status = om.namespace.getFileStatus(VOLUME, BUCKET, path);
      return status.getDirectory() ? "directory" : "file of " + status.getSize() + " bytes";
    }
  }

  record ListDir(String path) implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      ListStatusResponse listed = om.namespace.listStatus(VOLUME, BUCKET, path, "", 1000);
      return listed.getEntriesList().stream().map(NamespaceOp::entry).collect(Collectors.joining(", ", "[", "]"));
    }
  }

  /** One transaction of the background purge of deleted directories (how much it removed is not compared). */
  record Purge() implements NamespaceOp {
    @Override
    public boolean placedWhereItRead() {
      return true;
    }

    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      om.purger.purgeSome();
      return "ok";
    }
  }

  /** The whole bucket's consistency, on one snapshot: no orphan, no cycle, usage matching the rows. */
  record Check() implements NamespaceOp {
    @Override
    public String run(SimulatedOm om, Map<Long, OpenKeyRow> opened) throws OmException {
      List<String> problems = NamespaceCheck.check(om.runner, VOLUME, BUCKET);
      return problems.isEmpty() ? "consistent" : String.join("; ", problems);
    }
  }

  private static OpenKeyRequest request(String key, boolean createParents) {
    return OpenKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET).setKey(key)
        .setCreateParents(createParents).build();
  }

  private static KeyBlock block(long localId, long size) {
    return KeyBlock.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(1).setLocalId(localId))
        .setLength(size).build();
  }

  /** A listing entry as text: its path, and its size if a file. */
  static String entry(KeyInfo info) {
    return info.getDirectory() ? info.getName() + "/" : info.getName() + " (" + info.getSize() + ")";
  }
}
