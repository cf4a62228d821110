package org.tropos.client.hadoop;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListStatusResponse;

/** Directory listings as Hadoop's remote iterators. */
final class Listings {
  /** Entries asked of the OM per page when listing. */
  static final int PAGE = 1000;

  private Listings() {
  }

  /** How an entry of a listed directory becomes a status. */
  @FunctionalInterface
  interface StatusOf {
    FileStatus of(Path path, KeyInfo key);
  }

  /** Where a listed file's blocks are (the file system's getFileBlockLocations). */
  @FunctionalInterface
  interface Locator {
    BlockLocation[] of(FileStatus file) throws IOException;
  }

  static RemoteIterator<FileStatus> single(FileStatus status) {
    return of(List.of(status));
  }

  static RemoteIterator<FileStatus> of(List<FileStatus> statuses) {
    Iterator<FileStatus> it = statuses.iterator();
    return new RemoteIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public FileStatus next() {
        return it.next();
      }
    };
  }

  /**
   * The entries of {@code statuses} (a listing of {@code path}) that {@code filter} accepts, files with their block
   * locations, each located only as the caller reaches it.
   */
  static RemoteIterator<LocatedFileStatus> located(RemoteIterator<FileStatus> statuses, PathFilter filter,
      Locator locator, Path path) {
    return new RemoteIterator<>() {
      private LocatedFileStatus next;

      @Override
      public boolean hasNext() throws IOException {
        while (next == null && statuses.hasNext()) {
          FileStatus status = statuses.next();
          if (filter.accept(status.getPath())) {
            next = new TroposFileStatus.Located(status, status.isFile() ? locator.of(status) : null);
          }
        }
        return next != null;
      }

      @Override
      public LocatedFileStatus next() throws IOException {
        if (!hasNext()) {
          throw new NoSuchElementException("no more entries in " + path);
        }
        LocatedFileStatus result = next;
        next = null;
        return result;
      }
    };
  }

  /** A bucket directory's entries, fetched from the OM a page at a time as the caller advances. */
  static final class Paged implements RemoteIterator<FileStatus> {
    private final TroposClient client;
    private final TroposPath directory;
    private final Path qualified;
    private final StatusOf statusOf;
    private final Deque<KeyInfo> page = new ArrayDeque<>();
    private String after = "";
    private boolean more = true;

    Paged(TroposClient client, TroposPath directory, Path qualified, StatusOf statusOf) {
      this.client = client;
      this.directory = directory;
      this.qualified = qualified;
      this.statusOf = statusOf;
    }

    @Override
    public boolean hasNext() throws IOException {
      if (page.isEmpty() && more) {
        fetch();
      }
      return !page.isEmpty();
    }

    private void fetch() throws IOException {
      try {
        ListStatusResponse response = client.listStatus(directory.volume(), directory.bucket(), directory.key(),
            after, PAGE);
        page.addAll(response.getEntriesList());
        more = response.getTruncated() && response.getEntriesCount() > 0;
        if (!page.isEmpty()) {
          after = name(page.peekLast());
        }
      } catch (OmException e) {
        throw FsErrors.of(e, directory);
      }
    }

    @Override
    public FileStatus next() throws IOException {
      if (!hasNext()) {
        throw new NoSuchElementException("no more entries in " + directory);
      }
      KeyInfo entry = page.poll();
      return statusOf.of(new Path(qualified, name(entry)), entry);
    }

    private static String name(KeyInfo entry) {
      return entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
    }
  }
}
