package org.tropos.om.namespace;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OmResult;

/** Checks names and splits paths, with errors that say what is wrong. */
public final class Names {
  /** S3's bucket naming rules, which Ozone applies to volumes and buckets alike. */
  private static final Pattern RESOURCE = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern IP_ADDRESS = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");
  private static final int MAX_KEY_BYTES = 1024;

  private Names() {
  }

  public static void checkVolume(String name) throws OmException {
    checkResource("volume", name);
  }

  public static void checkBucket(String name) throws OmException {
    checkResource("bucket", name);
  }

  private static void checkResource(String what, String name) throws OmException {
    if (!RESOURCE.matcher(name).matches() || name.contains("..") || name.contains(".-") || name.contains("-.")) {
      throw new OmException(OmResult.INVALID_REQUEST, "invalid " + what + " name '" + name + "': 3-63 lowercase"
          + " letters, digits, '.' and '-', starting and ending with a letter or digit");
    }
    if (IP_ADDRESS.matcher(name).matches()) {
      throw new OmException(OmResult.INVALID_REQUEST, "invalid " + what + " name '" + name + "': it must not look"
          + " like an IP address");
    }
  }

  /** An OBJECT_STORE key: any non-empty name of at most 1024 UTF-8 bytes. */
  public static void checkKey(String key) throws OmException {
    if (key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES || key.indexOf('\0') >= 0) {
      throw new OmException(OmResult.INVALID_PATH, "invalid key name '" + key + "': 1-1024 UTF-8 bytes, no NUL");
    }
  }

  /**
   * The components of a path in an FSO bucket: leading, trailing and repeated '/' are dropped; '.' and '..'
   * are refused. The empty path (the bucket's root) has no components.
   */
  public static List<String> split(String path) throws OmException {
    if (path.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES || path.indexOf('\0') >= 0) {
      throw new OmException(OmResult.INVALID_PATH, "invalid path '" + path + "': at most 1024 UTF-8 bytes, no NUL");
    }
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      if (part.equals(".") || part.equals("..")) {
        throw new OmException(OmResult.INVALID_PATH, "invalid path '" + path + "': '.' and '..' are not allowed");
      }
      parts.add(part);
    }
    return parts;
  }

  /** A file's path in an FSO bucket: one ending in '/' names a directory, which holds no bytes. */
  public static void checkFileName(String path) throws OmException {
    if (path.endsWith("/")) {
      throw new OmException(OmResult.INVALID_PATH, "'" + path + "' ends in '/': in a FILE_SYSTEM_OPTIMIZED bucket"
          + " that names a directory, which holds no bytes");
    }
  }

  public static String join(List<String> parts) {
    return String.join("/", parts);
  }
}
