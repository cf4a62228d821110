package org.tropos.client.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
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
import org.tropos.client.KeyOutputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OmResult;

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
  private PathLookup paths;
  private PathCreation creation;
  private Renames renames;
  private AttributeChanges attributes;

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
    Configuration tropos = FsConfiguration.of(name, conf);
    this.client = TroposClient.create(tropos, user, HadoopCredentials.transport(tropos, getCanonicalServiceName(),
        true));
    this.levels = new TopLevels(client, user);
    this.paths = new PathLookup(this);
    this.creation = new PathCreation(client, levels, user, paths, this::getConf);
    this.renames = new Renames(client, paths);
    this.attributes = new AttributeChanges(client, paths);
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
    return paths.resolve(path);
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
    return output(creation.file(path, new PathCreation.CreateHints(permission, blockSize), overwrite, true));
  }

  /** The parent directory must exist. */
  @Override
  public FSDataOutputStream createNonRecursive(Path path, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_CREATE_NON_RECURSIVE);
    return output(creation.fileInExisting(path, new PathCreation.CreateHints(permission, blockSize),
        flags.contains(CreateFlag.OVERWRITE)));
  }

  private FSDataOutputStream output(KeyOutputStream key) throws IOException {
    return new FSDataOutputStream(new TroposOutputStream(key), statistics);
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
    return renames.rename(src, dst);
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
    return creation.directory(path);
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
    attributes.times(path, mtime, atime);
  }

  /** Stored with the file or directory; Tropos does not enforce it yet. */
  @Override
  public void setPermission(Path path, FsPermission permission) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_SET_PERMISSION);
    attributes.permission(path, permission);
  }

  /** null leaves the owner or the group as it is. */
  @Override
  public void setOwner(Path path, String owner, String group) throws IOException {
    operations.incrementCounter(StoreStatisticNames.OP_SET_OWNER);
    attributes.owner(path, owner, group);
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
    return Listings.located(listStatusIterator(path), filter, status -> getFileBlockLocations(status, 0,
        status.getLen()), path);
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
