package org.tropos.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * README.md names only commands that {@code tropos} has, and names every top-level one. The README is read simply:
 *
 * <ul>
 *   <li>Commands are read from inline code spans (`...`); a table's escaped bar ({@code \|}) reads as {@code |}.
 *   <li>In a span, the words after {@code tropos} (or {@code bin/tropos}) are a command path from the top, up to a
 *       shell separator ({@code |} between spaces, {@code &&}, {@code ;}) or the next {@code tropos}.
 *   <li>In the table under "What works today", a row whose first cell names a {@code tropos} command: when that
 *       command has subcommands, every other span of the row without {@code tropos} in it is a path under it
 *       (`container list` in the row of `tropos admin`), except spans naming Apache Ozone's commands
 *       (`ozone sh`).
 *   <li>A path holds the words that look like commands (a lowercase letter, then letters, digits or '-'); the
 *       first other word (an option {@code -x}, a path {@code /v} or {@code a.b}, a placeholder {@code FILE},
 *       {@code <blocks>} or {@code [--state S]}) ends it. A command without subcommands takes the rest as its
 *       arguments.
 *   <li>{@code a|b} (no spaces) offers alternatives: the words after a bar take the place of the last command word
 *       before it, so `container list [--state S]|info ID` names container list and container info.
 * </ul>
 */
class ReadmeCommandsTest {
  private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern COMMAND_WORD = Pattern.compile("[a-z][A-Za-z0-9-]*");
  private static final Set<String> SHELL_SEPARATORS = Set.of("|", "&&", ";", "||");
  /** The command tree (picocli reads the annotations once). */
  private static final CommandLine TROPOS = new CommandLine(Tropos.class);

  /** A command path the README names, and the span it was read from. */
  private record Mention(List<String> path, String span) {
  }

  @Test
  void readmeNamesOnlyCommandsThatExist() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Mention mention : mentions(Files.readAllLines(readme()))) {
      String problem = problem(TROPOS, mention.path());
      if (problem != null) {
        problems.add("README.md `" + mention.span() + "`: " + problem);
      }
    }
    assertEquals(List.of(), problems);
  }

  /** The modules' READMEs and docs/ hold the same: each {@code tropos} command they name exists. */
  @Test
  void moduleReadmesAndDocsNameOnlyCommandsThatExist() throws IOException {
    Path root = readme().getParent();
    List<Path> files = new ArrayList<>();
    try (var modules = Files.list(root); var docs = Files.list(root.resolve("docs"))) {
      modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).forEach(files::add);
      docs.filter(f -> f.toString().endsWith(".md")).forEach(files::add);
    }
    assertTrue(files.size() > 8, "found " + files);
    List<String> problems = new ArrayList<>();
    for (Path file : files) {
      for (Mention mention : mentions(Files.readAllLines(file))) {
        String problem = problem(TROPOS, mention.path());
        if (problem != null) {
          problems.add(root.relativize(file) + " `" + mention.span() + "`: " + problem);
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void readmeNamesEveryTopLevelCommand() throws IOException {
    Set<String> named = new TreeSet<>();
    mentions(Files.readAllLines(readme())).forEach(m -> named.add(m.path().isEmpty() ? "" : m.path().get(0)));
    Set<String> missing = new TreeSet<>();
    for (CommandLine sub : new LinkedHashSet<>(TROPOS.getSubcommands().values())) {
      if (!sub.getCommandSpec().usageMessage().hidden() && !named.contains(sub.getCommandName())) {
        missing.add(sub.getCommandName());
      }
    }
    assertEquals(Set.of(), missing, "top-level commands that README.md never names as `tropos <command>`");
  }

  /** The reading rules above, on lines made for them; and a misnamed command is caught. */
  @Test
  void readsTheReadmeAsItsJavadocSays() {
    List<String> lines = List.of("Run `bin/tropos sh key cat /v/b/k | head` or `tropos admin block put FILE`.",
        "## What works today", "| piece | state |", "|---|---|",
        "| `tropos admin` | `container list [--state S] [--health H]\\|info ID\\|report`, `ozone admin`,"
            + " `om roles|transfer NODE`, `--all` |",
        "| `tropos om` | `mkdir -p` |", "## Next", "| `tropos nothing` | `x` |");
    List<List<String>> paths = mentions(lines).stream().map(Mention::path).toList();
    assertEquals(List.of(List.of("sh", "key", "cat"), List.of("admin", "block", "put"), List.of("admin"),
        List.of("admin", "container", "list"), List.of("admin", "container", "info"),
        List.of("admin", "container", "report"), List.of("admin", "om", "roles"), List.of("admin", "om", "transfer"),
        List.of("admin"), List.of("om"), List.of("nothing")), paths);

    assertEquals(null, problem(TROPOS, List.of("admin", "container", "report")));
    assertEquals(null, problem(TROPOS, List.of("admin", "om", "transfer", "om2")), "transfer's argument");
    String problem = problem(TROPOS, List.of("admin", "container", "reports"));
    assertTrue(problem != null && problem.contains("reports") && problem.contains("it has info, list, report)"), problem);
  }

  /** Every command path the README names, in order. */
  private static List<Mention> mentions(List<String> lines) {
    List<Mention> mentions = new ArrayList<>();
    boolean inTable = false;
    for (String line : lines) {
      if (line.startsWith("## ")) {
        inTable = line.equals("## What works today");
      }
      List<String> spans = spans(line);
      for (String span : spans) {
        fromTropos(span).forEach(path -> mentions.add(new Mention(path, span)));
      }
      if (inTable && line.startsWith("|") && !spans.isEmpty() && line.indexOf('|', 1) > 0) {
        List<String> firstCell = spans(line.substring(0, line.indexOf('|', 1)));
        List<List<String>> rowCommand = firstCell.isEmpty() ? List.of() : fromTropos(firstCell.get(0));
        if (rowCommand.size() == 1 && hasSubcommands(rowCommand.get(0))) {
          for (String span : spans(line.substring(line.indexOf('|', 1)))) {
            if (!span.startsWith("ozone ") && fromTropos(span).isEmpty()) {
              paths(rowCommand.get(0), span).forEach(path -> mentions.add(new Mention(path, span)));
            }
          }
        }
      }
    }
    return mentions;
  }

  private static boolean hasSubcommands(List<String> path) {
    CommandLine command = TROPOS;
    for (String word : path) {
      command = command.getSubcommands().get(word);
      if (command == null) {
        return false;
      }
    }
    return !command.getSubcommands().isEmpty();
  }

  private static List<String> spans(String line) {
    List<String> spans = new ArrayList<>();
    Matcher m = SPAN.matcher(line);
    while (m.find()) {
      spans.add(m.group(1).replace("\\|", "|").strip());
    }
    return spans;
  }

  /** The paths after each {@code tropos} word of a span. */
  private static List<List<String>> fromTropos(String span) {
    List<List<String>> paths = new ArrayList<>();
    String[] words = span.split("\\s+");
    for (int i = 0; i < words.length; i++) {
      if (isTropos(words[i])) {
        List<String> command = new ArrayList<>();
        for (int j = i + 1; j < words.length && !isTropos(words[j]) && !SHELL_SEPARATORS.contains(words[j]); j++) {
          command.add(words[j]);
        }
        paths.addAll(paths(List.of(), String.join(" ", command)));
      }
    }
    return paths;
  }

  private static boolean isTropos(String word) {
    return word.equals("tropos") || word.endsWith("/tropos");
  }

  /** The command paths a span's words name under {@code prefix}, one per alternative. */
  private static List<List<String>> paths(List<String> prefix, String words) {
    List<List<String>> paths = new ArrayList<>();
    List<String> path = new ArrayList<>(prefix);
    int lastCommand = -1;
    for (String alternative : words.split("\\|", -1)) {
      if (!paths.isEmpty()) {
        if (lastCommand < 0) {
          break;
        }
        path = new ArrayList<>(path.subList(0, lastCommand));
        lastCommand = -1;
      }
      for (String word : alternative.strip().split("\\s+")) {
        if (!COMMAND_WORD.matcher(word).matches()) {
          break;
        }
        path.add(word);
        lastCommand = path.size() - 1;
      }
      paths.add(List.copyOf(path));
    }
    return paths;
  }

  /** Why {@code path} is not a command of {@code tropos}, or null when it is. */
  private static String problem(CommandLine tropos, List<String> path) {
    CommandLine command = tropos;
    for (String word : path) {
      if (command.getSubcommands().isEmpty()) {
        return null;
      }
      CommandLine next = command.getSubcommands().get(word);
      if (next == null) {
        return "'" + command.getCommandSpec().qualifiedName() + "' has no subcommand '" + word + "' (it has "
            + String.join(", ", new TreeSet<>(command.getSubcommands().keySet())) + ")";
      }
      command = next;
    }
    return null;
  }

  /** README.md of the repository: the first directory up from here that has it beside a pom.xml. */
  private static Path readme() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md")) && Files.isRegularFile(dir.resolve("pom.xml"))
          && Files.isDirectory(dir.resolve("tools"))) {
        return dir.resolve("README.md");
      }
    }
    throw new IllegalStateException("no README.md above " + Path.of("").toAbsolutePath());
  }
}
