package org.tropos.client.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Progressable;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.SetFileAttributesRequest;

/**
 * Hadoop's FileSystem over Tropos, rooted: {@code tropos://<om-host[:port]>/<volume>/<bucket>/<path>}
 * (ARCHITECTURE.md, "Hadoop FileSystem"). Volumes and buckets are the first two directory levels; below them
 * the bucket's namespace, which must be FILE_SYSTEM_OPTIMIZED: directories are OM rows, so a rename or a
 * recursive delete of a directory is one OM transaction whatever it holds. Files are written and read through
 * {@link TroposClient}'s key streams; a file becomes visible, whole, when its stream is closed.
 *
 * <p>Thread-safe, as Hadoop requires: the client is shared, streams are per caller.
 */
public class TroposFileSystem extends FileSystem implements IOStatisticsSource {
  public static final String SCHEME = "tropos";
  /** Entries asked of the OM per page when listing. */
  static final int LIST_PAGE = 1000;
  private static final short DEFAULT_REPLICATION = 3;

  /** Operations by kind (Hadoop's names), for IOStatistics. */
  private final IOStatisticsStore operations = IOStatisticsBinding.iostatisticsStore().withCounters(
      StoreStatisticNames.OP_CREATE, StoreStatisticNames.OP_CREATE_NON_RECURSIVE, StoreStatisticNames.OP_OPEN,
      StoreStatisticNames.OP_RENAME, StoreStatisticNames.OP_DELETE, StoreStatisticNames.OP_MKDIRS,
      StoreStatisticNames.OP_LIST_STATUS, StoreStatisticNames.OP_LIST_LOCATED_STATUS,
      StoreStatisticNames.OP_GET_FILE_STATUS, StoreStatisticNames.OP_GET_FILE_CHECKSUM,
      StoreStatisticNames.OP_SET_TIMES, StoreStatisticNames.OP_SET_OWNER, StoreStatisticNames.OP_SET_PERMISSION)
      .build();
  private URI uri;
  private Path workingDirectory;
  private TroposClient client;
  private String user;
  private TopLevels levels;

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI name, org.apache.hadoop.conf.Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    this.uri = URI.create(SCHEME + "://" + (name.getAuthority() == null ? "" : name.getAuthority()));
    this.user = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
    this.workingDirectory = new Path("/user", user).makeQualified(uri, null);
    Configuration tropos = troposConfiguration(name, conf);
    this.client = TroposClient.create(tropos, user, HadoopCredentials.transport(tropos, getCanonicalServiceName(),
        true));
    this.levels = new TopLevels(client, user);
  }

  /**
   * Tropos's own keys (ozone.*, hdds.*, tropos.*: the CA and certificate of a secure cluster) from the Hadoop
   * configuration; the URI's authority names the OM ({@code host:port}) or, like Ozone's {@code ofs://}, an OM HA
   * service of {@code ozone.om.service.ids}, whose OMs the client then follows.
   */
  static Configuration troposConfiguration(URI name, org.apache.hadoop.conf.Configuration conf) {
    Map<String, String> keys = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith("ozone.") || e.getKey().startsWith("hdds.") || e.getKey().startsWith("tropos.")) {
        keys.put(e.getKey(), e.getValue());
      }
    }
    String authority = name.getAuthority();
    if (authority != null && !authority.isEmpty()) {
      String services = keys.getOrDefault("ozone.om.service.ids", "");
      if (Arrays.stream(services.split(",")).map(String::strip).anyMatch(authority::equals)) {
        keys.put("ozone.om.service.ids", authority);
      } else {
        keys.put("ozone.om.address", authority);
        keys.remove("ozone.om.service.ids");
      }
    }
    return Configuration.defaults().with(keys);
  }

  /** What this file system's delegation tokens are kept under: the OM or OM service of its URI. */
  @Override
  public String getCanonicalServiceName() {
    return uri.getAuthority();
  }

  /**
   * A delegation token of this user that {@code renewer} may renew, for a job's tasks; null when the cluster is not
   * secure (a client without security has nothing to delegate).
   */
  @Override
  public Token<?> getDelegationToken(String renewer) throws IOException {
    if (!client.secure()) {
      return null;
    }
    try {
      return TroposTokenIdentifier.toHadoop(client.getDelegationToken(renewer == null ? "" : renewer).getToken(),
          getCanonicalServiceName());
    } catch (OmException e) {
      throw FsErrors.of(e, "a delegation token of " + uri);
    }
  }

  /** Three replicas, Tropos's default (Hadoop's own default here would be one). */
  @Override
  public short getDefaultReplication(Path path) {
    return DEFAULT_REPLICATION;
  }

  /** The configured block size (ozone.scm.block.size). */
  @Override
  public long getDefaultBlockSize(Path path) {
    return client.blockSize();
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDirectory;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDirectory = makeQualified(dir);
  }

  private TroposPath resolve(Path path) {
    return TroposPath.of(makeQualified(path));
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_OPEN);
    TroposPath p = resolve(path);
    return new FSDataInputStream(new TroposInputStream(client.readKey(lookupFile(p)), p.toString(), statistics));
  }

  /** A file with its replicas' locations, in one OM call: a missing path or a directory is not found. */
  private LookupKeyResponse lookupFile(TroposPath p) throws IOException {
    if (!p.isKey()) {
      throw new FileNotFoundException(p + " is a directory (a volume or a bucket), not a file");
    }
    try {
      return client.lookupKey(p.volume(), p.bucket(), p.key());
    } catch (OmException e) {
      if (FsErrors.notFound(e) || e.result() == OmResult.NOT_A_FILE) {
        throw new FileNotFoundException(p + ": no such file (" + e.getMessage() + ")");
      }
      throw FsErrors.of(e, p);
    }
  }

  /** Creates missing parent directories (and the volume and bucket), as HDFS does. */
  @Override
  public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_CREATE);
    return createFile(path, new CreateHints(permission, blockSize), overwrite, true);
  }

  /** The parent directory must exist. */
  @Override
  public FSDataOutputStream createNonRecursive(Path path, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_CREATE_NON_RECURSIVE);
    FileStatus parent = statusOrNull(path.getParent());
    if (parent == null) {
      throw new FileNotFoundException(resolve(path.getParent()) + " does not exist");
    }
    if (parent.isFile()) {
      throw new ParentNotDirectoryException(resolve(path.getParent()) + " is a file");
    }
    return createFile(path, new CreateHints(permission, blockSize), flags.contains(CreateFlag.OVERWRITE),
        false);
  }

  /**
   * What a create asks for beyond the path: the permission is stored (less the umask), a smaller block size is
   * followed. Replication is not: Hadoop's tools ask for one replica freely (the contract tests do), and a file
   * gets its bucket's replication, as SCM opens pipelines of that factor only.
   */
  private record CreateHints(FsPermission permission, long blockSize) {
  }

  private FSDataOutputStream createFile(Path path, CreateHints hints, boolean overwrite, boolean createParents)
      throws IOException {
    TroposPath p = resolve(path);
    if (!p.isKey()) {
      throw new FileAlreadyExistsException(p + " is a volume or bucket: a file needs a path inside a bucket");
    }
    FileStatus existing = statusOrNull(path);
    if (existing != null && existing.isDirectory()) {
      throw new FileAlreadyExistsException(p + " is a directory");
    }
    if (existing != null && !overwrite) {
      throw new FileAlreadyExistsException(p + " exists");
    }
    if (createParents) {
      prepareParents(p, path.getParent());
    }
    try {
      OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().setVolume(p.volume()).setBucket(p.bucket())
          .setKey(p.key()).setCreateParents(createParents).setNoOverwrite(!overwrite).setOwner(user);
      if (hints.permission() != null) {
        open.setPermission(hints.permission().applyUMask(FsPermission.getUMask(getConf())).toShort());
      }
      return new FSDataOutputStream(new TroposOutputStream(client.createKey(open.build(),
          hints.blockSize() > 0 ? hints.blockSize() : Long.MAX_VALUE)), statistics);
    } catch (OmException e) {
      throw FsErrors.of(e, p);
    }
  }

  /**
   * A file cannot be created under a file: found before the write, not at its commit. Creates the volume and
   * bucket unless a directory inside the bucket was found on the way (then they exist).
   */
  private void prepareParents(TroposPath p, Path parent) throws IOException {
    for (Path q = parent; q != null && resolve(q).isKey(); q = q.getParent()) {
      FileStatus status = statusOrNull(q);
      if (status != null) {
        if (status.isFile()) {
          throw new ParentNotDirectoryException(resolve(q) + " is a file");
        }
        return;
      }
    }
    levels.ensureBucket(p);
  }

  @Override
  public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) {
    throw new UnsupportedOperationException("append is not supported by " + SCHEME + "://: a Tropos file is"
        + " immutable once closed");
  }

  /**
   * HDFS's rename: onto an existing directory moves the source into it; false when the source is missing, the
   * destination exists or its parent does not, or a directory would move into itself. One OM transaction,
   * whatever the source holds, and usually one call: the OM's answer tells the cases apart. Both ends must be
   * in one bucket.
   */
  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_RENAME);
    TroposPath from = resolve(src);
    TroposPath to = resolve(dst);
    if (!from.isKey()) {
      return false;
    }
    if (to.equals(from)) {
      FileStatus source = statusOrNull(src);
      return source != null && source.isFile();
    }
    if (to.isKey() && to.sameBucket(from) && renameInOm(from, to)) {
      return true;
    }
    // The destination exists (or is a volume or bucket): a directory takes the source in, under its own name.
    FileStatus existing = statusOrNull(dst);
    if (existing == null || !existing.isDirectory()) {
      requireSameBucket(from, to);
      return false;
    }
    TroposPath inside = resolve(new Path(makeQualified(dst), src.getName()));
    requireSameBucket(from, inside);
    return !inside.equals(from) && renameInOm(from, inside);
  }

  private static void requireSameBucket(TroposPath from, TroposPath to) throws IOException {
    if (!to.isKey() || !to.sameBucket(from)) {
      throw new IOException("cannot rename " + from + " to " + to + ": a rename stays inside one bucket");
    }
  }

  /** False for what HDFS answers false to: a missing source or parent, an existing target, a move into itself. */
  private boolean renameInOm(TroposPath from, TroposPath to) throws IOException {
    try {
      client.renameKey(from.volume(), from.bucket(), from.key(), to.key());
      return true;
    } catch (OmException e) {
      if (FsErrors.notFound(e) || e.result() == OmResult.FILE_ALREADY_EXISTS
          || e.result() == OmResult.INVALID_PATH) {
        return false;
      }
      throw FsErrors.of(e, from);
    }
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_DELETE);
    TroposPath p = resolve(path);
    try {
      if (p.isKey()) {
        client.deleteKey(p.volume(), p.bucket(), p.key(), recursive);
        return true;
      }
      return levels.delete(p, recursive);
    } catch (OmException e) {
      if (FsErrors.notFound(e)) {
        return false;
      }
      throw FsErrors.of(e, p);
    }
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    List<FileStatus> all = new ArrayList<>();
    RemoteIterator<FileStatus> it = listStatusIterator(path);
    while (it.hasNext()) {
      all.add(it.next());
    }
    return all.toArray(new FileStatus[0]);
  }

  /** Directory entries a page at a time from the OM: a huge directory is never held whole. */
  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path path) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_LIST_STATUS);
    Path qualified = makeQualified(path);
    TroposPath p = resolve(path);
    FileStatus self = getFileStatus(path);
    if (self.isFile()) {
      return Listings.single(self);
    }
    if (p.isRoot() || p.isVolume()) {
      return Listings.of(levels.list(qualified, p));
    }
    return new Listings.Paged(client, p, qualified, this::fileStatus);
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_MKDIRS);
    TroposPath p = resolve(path);
    if (p.isRoot()) {
      return true;
    }
    FileStatus existing = statusOrNull(path);
    if (existing != null) {
      if (existing.isFile()) {
        throw new FileAlreadyExistsException(p + " is a file");
      }
      return true;
    }
    prepareParents(p, path.getParent());
    if (p.isKey()) {
      try {
        client.createDirectory(p.volume(), p.bucket(), p.key());
      } catch (OmException e) {
        throw FsErrors.of(e, p);
      }
    }
    return true;
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_GET_FILE_STATUS);
    Path qualified = makeQualified(path);
    TroposPath p = TroposPath.of(qualified);
    try {
      if (!p.isKey()) {
        return levels.status(qualified, p);
      }
      return fileStatus(qualified, client.getFileStatus(p.volume(), p.bucket(), p.key()));
    } catch (OmException e) {
      if (FsErrors.notFound(e)) {
        throw new FileNotFoundException(p + ": no such file or directory");
      }
      throw FsErrors.of(e, p);
    }
  }

  private FileStatus statusOrNull(Path path) throws IOException {
    try {
      return getFileStatus(path);
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  FileStatus fileStatus(Path path, KeyInfo key) {
    if (key.getDirectory()) {
      return directory(path, key);
    }
    return new TroposFileStatus(path, key, getDefaultBlockSize(path));
  }

  /** -1 leaves a time as it is (Hadoop's convention). */
  @Override
  public void setTimes(Path path, long mtime, long atime) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_SET_TIMES);
    SetFileAttributesRequest.Builder r = attributes(path);
    if (mtime >= 0) {
      r.setModificationTimeMs(mtime);
    }
    if (atime >= 0) {
      r.setAccessTimeMs(atime);
    }
    setAttributes(path, r);
  }

  /** Stored with the file or directory; Tropos does not enforce it yet. */
  @Override
  public void setPermission(Path path, FsPermission permission) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_SET_PERMISSION);
    setAttributes(path, attributes(path).setPermission(permission.toShort()));
  }

  /** null leaves the owner or the group as it is. */
  @Override
  public void setOwner(Path path, String owner, String group) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_SET_OWNER);
    SetFileAttributesRequest.Builder r = attributes(path);
    if (owner != null) {
      r.setOwner(owner);
    }
    if (group != null) {
      r.setGroup(group);
    }
    setAttributes(path, r);
  }

  private SetFileAttributesRequest.Builder attributes(Path path) throws IOException {
    TroposPath p = resolve(path);
    if (!p.isKey()) {
      throw new IOException(p + ": volumes and buckets keep their own attributes (tropos sh)");
    }
    return SetFileAttributesRequest.newBuilder().setVolume(p.volume()).setBucket(p.bucket()).setPath(p.key());
  }

  private void setAttributes(Path path, SetFileAttributesRequest.Builder request) throws IOException {
    try {
      client.setFileAttributes(request.build());
    } catch (OmException e) {
      if (FsErrors.notFound(e)) {
        throw new FileNotFoundException(resolve(path) + ": no such file or directory");
      }
      throw FsErrors.of(e, resolve(path));
    }
  }

  /**
   * The file's composite CRC (HDFS's COMPOSITE_CRC: a CRC32C of all its bytes), the same for the same bytes
   * whatever the block layout, from the checksums the datanodes stored. Null (no checksum) for a prefix.
   */
  @Override
  public FileChecksum getFileChecksum(Path path, long length) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_GET_FILE_CHECKSUM);
    LookupKeyResponse file = lookupFile(resolve(path));
    return length < file.getKey().getSize() ? null : CompositeCrc.of(client, file);
  }

  /** One location per Tropos block, with the hosts and racks of its replicas, nearest first. */
  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("negative start or length: " + start + ", " + len);
    }
    TroposPath p = resolve(file.getPath());
    if (file.isDirectory() || !p.isKey() || start >= file.getLen()) {
      return new BlockLocation[0];
    }
    try {
      return BlockLocations.of(client.lookupKey(p.volume(), p.bucket(), p.key()), start, len);
    } catch (OmException e) {
      throw FsErrors.of(e, p);
    }
  }

  /** Entries a page at a time, files with their block locations and etags. */
  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path path, PathFilter filter) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_LIST_LOCATED_STATUS);
    RemoteIterator<FileStatus> statuses = listStatusIterator(path);
    return new RemoteIterator<>() {
      private LocatedFileStatus next;

      @Override
      public boolean hasNext() throws IOException {
        while (next == null && statuses.hasNext()) {
          FileStatus status = statuses.next();
          if (filter.accept(status.getPath())) {
            next = new TroposFileStatus.Located(status, status.isFile()
                ? getFileBlockLocations(status, 0, status.getLen()) : null);
          }
        }
        return next != null;
      }

      @Override
      public LocatedFileStatus next() throws IOException {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException("no more entries in " + path);
        }
        LocatedFileStatus result = next;
        next = null;
        return result;
      }
    };
  }

  /** What tropos:// can and cannot do, answered truthfully. */
  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(path), capability)) {
      case CommonPathCapabilities.ETAGS_AVAILABLE:
      case CommonPathCapabilities.ETAGS_PRESERVED_IN_RENAME:
      case CommonPathCapabilities.FS_CHECKSUMS:
        return true;
      case CommonPathCapabilities.FS_APPEND:
      case CommonPathCapabilities.FS_CONCAT:
      case CommonPathCapabilities.FS_PERMISSIONS:
      case CommonPathCapabilities.FS_SYMLINKS:
        return false;
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  private static FileStatus directory(Path path, KeyInfo dir) {
    return new FileStatus(0, true, 0, 0, dir.getModificationTimeMs(), dir.getAccessTimeMs(),
        dir.getPermission() == 0 ? FsPermission.getDirDefault() : new FsPermission((short) dir.getPermission()),
        dir.getOwner(), dir.getGroup().isEmpty() ? dir.getOwner() : dir.getGroup(), path);
  }

  /** Counts of the operations this instance ran (bytes are in FileSystem.Statistics and the streams). */
  @Override
  public IOStatistics getIOStatistics() {
    return operations;
  }

  @Override
  public void close() throws IOException {
    try {
      if (client != null) {
        client.close();
      }
    } finally {
      super.close();
    }
  }
}
