package dev.remedy.cli;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.core.store.StateDirectoryReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code remedy state DIR}: the fence records an engine keeps in a state directory, read without changing anything
 * (an engine may be running on it), and what needs a person: corrupt or lost records, flows given up in ERROR.
 * Exit code 0 when nothing does, {@link ExitCodes#FAILED} when something does, {@link ExitCodes#BAD_INPUT} when
 * DIR is not a directory.
 */
@Command(name = "state", mixinStandardHelpOptions = true,
        description = "Show the fence records of a JSON state directory and what needs an admin, without changing it.")
final class StateCommand implements Callable<Integer> {

    @ParentCommand
    private RemedyCli cli;

    @Parameters(index = "0", paramLabel = "DIR", description = "the engine's state directory")
    private Path directory;

    @Option(names = "--verbose", description = "print stack traces of errors")
    private boolean verbose;

    @Override
    public Integer call() {
        StateDirectoryReport report;
        try {
            report = JsonFileStateStore.inspect(directory);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        PrintWriter out = cli.environment().out();
        out.println("state directory " + report.directory() + ": " + report.holder().map(h -> "in use by " + h)
                .orElse("no engine holds it now"));
        out.printf(Locale.ROOT, "%-24s %-6s %-20s %8s  %s%n", "NODE", "STATE", "STAGE", "VERSION", "REASON");
        boolean attention = false;
        for (NodeFence r : report.records()) {
            boolean held = r.gaveUp();
            attention |= held;
            out.printf(Locale.ROOT, "%-24s %-6s %-20s %8d  %s%s%n", r.node(), r.state().code(), r.stage().code(),
                    r.version(), held ? "NEEDS AN ADMIN: " : "", r.reason());
        }
        attention |= section(out, "records lost (an engine holds these nodes for an admin when it starts):",
                report.lost().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList());
        attention |= section(out, "corrupt files (an engine moves them to quarantine when it starts):",
                report.problems());
        section(out, "quarantined files (inspect, then delete or repair them):", report.quarantined());
        out.flush();
        return attention ? ExitCodes.FAILED : ExitCodes.OK;
    }

    private static boolean section(PrintWriter out, String title, List<String> lines) {
        if (lines.isEmpty()) {
            return false;
        }
        out.println(title);
        lines.forEach(line -> out.println("  " + line));
        return true;
    }
}
