package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * Conditions a write or a delete puts on the key it replaces or removes (S3's If-Match and If-None-Match, a file
 * system's create without overwrite), checked in the committing transaction against the row it read, so that a
 * concurrent change of that row makes the request run again and check again.
 */
final class Conditions {
  private Conditions() {
  }

  /** Whether committing {@code open} depends on the key it replaces (so that key must be read, and recorded). */
  static boolean onWrite(OpenKeyRow open, CommitKeyRequest commit) {
    return open.getNoOverwrite() || !open.getIfMatch().isEmpty() || !open.getIfNoneMatch().isEmpty()
        || commit.getRecommit();
  }

  /**
   * Checks a commit's conditions against the key it replaces ({@code existing}, not a delete marker): without
   * overwrite there must be none (or the writer's own earlier commit); if-none-match, none with that ETag ("*":
   * none at all); if-match, one (else KEY_NOT_FOUND) with that ETag ("*": any). A writer committing again (after
   * an hsync) must find its own earlier commit: a write that replaced it freed the blocks it lists again.
   */
  static void checkWrite(OpenKeyRow open, CommitKeyRequest commit, String path, Optional<FileRow> existing,
      boolean committedBefore) throws OmException {
    if (commit.getRecommit() && !committedBefore) {
      throw new OmException(OmResult.KEY_CHANGED, path + " was replaced or deleted while its writer still wrote"
          + " it; its earlier commit is gone");
    }
    if (open.getNoOverwrite() && existing.isPresent() && !committedBefore) {
      throw new OmException(OmResult.FILE_ALREADY_EXISTS, path + " already exists");
    }
    String unwanted = open.getIfNoneMatch();
    if (!unwanted.isEmpty() && existing.isPresent() && !committedBefore && etagMatches(unwanted, existing.get())) {
      throw new OmException(OmResult.PRECONDITION_FAILED, path + " exists" + (unwanted.equals("*") ? ""
          : " with ETag " + unwanted));
    }
    String wanted = open.getIfMatch();
    if (!wanted.isEmpty()) {
      if (existing.isEmpty()) {
        throw new OmException(OmResult.KEY_NOT_FOUND, path + " does not exist");
      }
      if (!etagMatches(wanted, existing.get())) {
        throw new OmException(OmResult.PRECONDITION_FAILED, path + " has ETag "
            + existing.get().getMetadataOrDefault(OpenKeys.ETAG, "(none)") + ", not " + wanted);
      }
    }
  }

  static boolean onDelete(DeleteKeyRequest request) {
    return !request.getIfMatch().isEmpty() || request.hasIfMatchSize() || request.hasIfMatchModificationTimeMs();
  }

  /** Checks a delete's conditions against the version it deletes (a delete marker has no ETag and no size). */
  static void checkDelete(DeleteKeyRequest request, String path, FileRow version) throws OmException {
    boolean holds = (request.getIfMatch().isEmpty() || etagMatches(request.getIfMatch(), version))
        && (!request.hasIfMatchSize() || (!version.getDeleteMarker()
            && KeyEncryptions.plaintextSize(version) == request.getIfMatchSize()))
        && (!request.hasIfMatchModificationTimeMs()
            || version.getModificationTimeMs() / 1000 == request.getIfMatchModificationTimeMs() / 1000);
    if (!holds) {
      throw new OmException(OmResult.PRECONDITION_FAILED, "the delete's conditions do not hold for " + path);
    }
  }

  /** Whether an ETag condition ("*" or an ETag, quoted or not) names the version's ETag. */
  private static boolean etagMatches(String condition, FileRow version) {
    if (condition.equals("*")) {
      return true;
    }
    String etag = version.getMetadataOrDefault(OpenKeys.ETAG, "");
    return !etag.isEmpty() && unquoted(condition).equals(unquoted(etag));
  }

  private static String unquoted(String etag) {
    return etag.replace("\"", "").strip();
  }
}
