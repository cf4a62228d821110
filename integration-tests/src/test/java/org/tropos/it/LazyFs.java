package org.tropos.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LazyFS mounted over a directory: a FUSE file system that keeps every write in its own memory until the file is
 * synced, and on {@link #cutPower} drops whatever was not (a power cut's page cache). Built by {@code .ci/lazyfs}
 * into {@code ~/.cache/tropos/lazyfs} (or the directory {@code lazyfs.home} names); mounting needs root and
 * {@code /dev/fuse}, so tests check {@link #available} first.
 *
 * <p>LazyFS passes creations, renames and deletions of names straight through; only file contents wait for a sync.
 */
final class LazyFs implements AutoCloseable {
  private static final Duration MOUNT_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern UNSYNCED = Pattern.compile("total number of bytes un-fsynced: (\\d+) bytes");
  private static final Pattern ALL_SYNCED = Pattern.compile("report: all data blocks are synced");
  private static final Pattern CLEARED = Pattern.compile("cache is cleared");

  private final Path mountPoint;
  private final Path commands;
  private final Path log;
  private final Process process;

  private LazyFs(Path dir, Path home, String cacheSize) throws IOException {
    Path lower = Files.createDirectories(dir.resolve("lower"));
    mountPoint = Files.createDirectories(dir.resolve("mnt"));
    commands = dir.resolve("faults.fifo");
    log = dir.resolve("lazyfs.log");
    Path config = dir.resolve("lazyfs.toml");
    Files.writeString(config, String.join("\n", "[faults]", "fifo_path=\"" + commands + "\"", "[cache]",
        "apply_eviction=false", "[cache.simple]",
        "custom_size=\"" + cacheSize + "\"", "blocks_per_page=1", "[filesystem]", "log_all_operations=false",
        "logfile=\"\"", ""));
    ProcessBuilder builder = new ProcessBuilder(home.resolve("lazyfs").toString(), mountPoint.toString(),
        "--config-path", config.toString(), "-o", "allow_other", "-o", "modules=subdir", "-o", "subdir=" + lower, "-f",
        // One request at a time: a large O_DIRECT write reaches FUSE as several requests at once, and LazyFS, serving
        // them on several threads, dropped some of their bytes when the file was synced (docs/design.md, "Power cuts").
        "-s")
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("LD_LIBRARY_PATH", home.toString());
    process = builder.start();
  }

  /** Where LazyFS's build is, when this machine has one and can mount it. */
  static Optional<Path> available() {
    Path home = Path.of(System.getProperty("lazyfs.home",
        Path.of(System.getProperty("user.home"), ".cache", "tropos", "lazyfs").toString()));
    boolean usable = Files.isExecutable(home.resolve("lazyfs")) && Files.exists(Path.of("/dev/fuse"))
        && "root".equals(System.getProperty("user.name"));
    return usable ? Optional.of(home) : Optional.empty();
  }

  /** Mounts LazyFS over {@code dir/lower} at {@code dir/mnt}, holding up to {@code cacheSize} of unsynced data. */
  static LazyFs mount(Path dir, Path home, String cacheSize) throws Exception {
    LazyFs fs = new LazyFs(dir, home, cacheSize);
    try {
      Await.until("LazyFS mounted at " + fs.mountPoint, MOUNT_TIMEOUT, fs::mounted, mounted -> mounted);
      return fs;
    } catch (AssertionError | Exception e) {
      fs.close();
      throw e;
    }
  }

  Path mountPoint() {
    return mountPoint;
  }

  private boolean mounted() throws IOException {
    if (!process.isAlive()) {
      throw new IOException("LazyFS exited (" + process.exitValue() + "): " + Files.readString(log));
    }
    return Files.readAllLines(Path.of("/proc/mounts")).stream()
        .anyMatch(line -> line.split(" ")[1].equals(mountPoint.toString()));
  }

  /**
   * The power cut: drops every byte written and not synced since, and returns how many there were. Whoever wrote
   * them must have stopped first (a killed process), as a machine that lost power writes nothing more.
   */
  long cutPower() throws Exception {
    long logged = Files.size(log);
    send("lazyfs::unsynced-data-report");
    String report = awaitLogged(logged, UNSYNCED, ALL_SYNCED);
    Matcher total = UNSYNCED.matcher(report);
    long unsynced = total.find() ? Long.parseLong(total.group(1)) : 0;
    logged = Files.size(log);
    send("lazyfs::clear-cache");
    awaitLogged(logged, CLEARED, CLEARED);
    return unsynced;
  }

  /** LazyFS's log past {@code offset} once it holds {@code one} or {@code other}: how it answers a command. */
  private String awaitLogged(long offset, Pattern one, Pattern other) throws Exception {
    String[] since = {""};
    Await.until("LazyFS to log " + one + " or " + other, MOUNT_TIMEOUT, () -> {
      since[0] = Files.readString(log).substring((int) offset);
      return one.matcher(since[0]).find() || other.matcher(since[0]).find();
    }, found -> found);
    return since[0];
  }

  private void send(String command) throws IOException {
    try (OutputStream out = Files.newOutputStream(commands)) {
      out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Unmounts and stops LazyFS (what it holds unsynced is lost, as at a power cut). */
  @Override
  public void close() throws IOException {
    try {
      new ProcessBuilder("fusermount3", "-u", "-z", mountPoint.toString()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
      process.destroy();
      if (!process.waitFor(MOUNT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted unmounting " + mountPoint, e);
    }
  }
}
