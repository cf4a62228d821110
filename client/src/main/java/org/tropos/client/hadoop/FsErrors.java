package org.tropos.client.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.security.AccessControlException;
import org.tropos.common.rpc.OmException;

/** The OM's results as the exceptions Hadoop's FileSystem contract names. */
final class FsErrors {
  private FsErrors() {
  }

  static IOException of(OmException e, Object path) {
    String message = path + ": " + e.getMessage();
    IOException mapped = switch (e.result()) {
      case VOLUME_NOT_FOUND, BUCKET_NOT_FOUND, KEY_NOT_FOUND, DIRECTORY_NOT_FOUND -> new FileNotFoundException(
          message);
      case FILE_ALREADY_EXISTS, VOLUME_ALREADY_EXISTS, BUCKET_ALREADY_EXISTS -> new FileAlreadyExistsException(
          message);
      case NOT_A_DIRECTORY -> new ParentNotDirectoryException(message);
      case DIRECTORY_NOT_EMPTY, VOLUME_NOT_EMPTY, BUCKET_NOT_EMPTY -> new PathIsNotEmptyDirectoryException(message);
      case PERMISSION_DENIED, INVALID_TOKEN -> new AccessControlException(message);
      default -> new IOException(message);
    };
    mapped.initCause(e);
    return mapped;
  }

  /** Whether {@code e} says the path (or a parent) does not exist. */
  static boolean notFound(OmException e) {
    return switch (e.result()) {
      case VOLUME_NOT_FOUND, BUCKET_NOT_FOUND, KEY_NOT_FOUND, DIRECTORY_NOT_FOUND, NOT_A_DIRECTORY -> true;
      default -> false;
    };
  }
}
