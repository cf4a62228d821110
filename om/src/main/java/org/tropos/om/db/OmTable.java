package org.tropos.om.db;

/** The OM's RocksDB column families (ARCHITECTURE.md, "OM"); key encodings are in {@link OmDbKeys}. */
public enum OmTable {
  VOLUMES("volumes"),
  BUCKETS("buckets"),
  /** FSO directories: bucket id, parent id, name. */
  DIRECTORIES("directories"),
  /** FSO files: bucket id, parent id, name. */
  FILES("files"),
  /** OBJECT_STORE keys (their latest version): bucket id, key name. */
  KEYS("keys"),
  /** The other versions of OBJECT_STORE keys: bucket id, key name, 0x00, version inverted (newest first). */
  KEY_VERSIONS("keyVersions"),
  OPEN_KEYS("openKeys"),
  DELETED_KEYS("deletedKeys"),
  DELETED_DIRECTORIES("deletedDirectories"),
  /** Bytes and names used per bucket, kept apart from the bucket row (see om_db.proto). */
  USAGE("usage"),
  /** S3 credentials: access id -> secret. */
  S3_SECRETS("s3Secrets"),
  /** S3 identity policies: name -> document. */
  S3_POLICIES("s3Policies"),
  /** S3 users' attached policies, groups and whether their credentials are disabled. */
  S3_USERS("s3Users"),
  /** S3 groups: name -> members and attached policies. */
  S3_GROUPS("s3Groups"),
  /** Delegation tokens issued and not yet cancelled or purged: token id -> identifier and expiry. */
  DELEGATION_TOKENS("delegationTokens"),
  /** Blocks shared by more than one key: container id, local id -> references. */
  BLOCK_REFS("blockRefs"),
  /** Multipart uploads in progress: bucket id, key, 0x00, upload id. */
  MULTIPART_UPLOADS("multipartUploads"),
  /** Their parts: upload id, 0x00, part number. */
  MULTIPART_PARTS("multipartParts"),
  /** Prefix ACLs: bucket id, prefix -> PrefixRow. */
  PREFIXES("prefixes"),
  /** OM HA's retry cache: minute the call started, call id, 0x00, transaction number -> CallRecord. */
  CALLS("calls"),
  META("meta");

  private final String family;

  OmTable(String family) {
    this.family = family;
  }

  public String family() {
    return family;
  }
}
