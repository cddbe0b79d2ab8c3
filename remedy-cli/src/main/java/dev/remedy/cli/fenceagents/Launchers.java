package dev.remedy.cli.fenceagents;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.RemedyException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code fence_remedy_<type>} launchers: one small {@code bash} script per agent that runs {@code java} on
 * remedy.jar with {@link FenceAgentProtocol#COMMAND}, passing its arguments and stdin through. The paths of java and
 * the jar are fixed when the script is written; {@link #JVM_FLAGS} are the flags of every launcher.
 */
public final class Launchers {

    /**
     * The JVM flags of a launcher, chosen for a process that lives for one fence action: the quick compiler only,
     * the serial collector, class-data sharing when the JVM has an archive, a small heap, no perf-data file.
     */
    public static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Xshare:auto", "-Xms16m", "-Xmx128m", "-XX:-UsePerfData");

    /**
     * The JVM flags of a resident agent server ({@link AgentServer}): the serial collector and a small heap; it
     * lives long enough for the optimising compiler to pay.
     */
    static final List<String> SERVER_FLAGS = List.of("-XX:+UseSerialGC", "-Xshare:auto", "-Xms16m", "-Xmx128m",
            "-XX:-UsePerfData");

    /** The launcher script, with {@code @NAME@}-style places for what {@link #script} fills in. */
    private static final String TEMPLATE = template();

    /** The line that marks a file as a launcher this command wrote, and may overwrite. */
    static final String MARKER = "# remedy-fence-agent-launcher";

    private Launchers() {
    }

    /** The launcher's name for agent {@code type}: {@code fence_remedy_} and the type, {@code -} turned to {@code _}. */
    public static String name(String type) {
        return "fence_remedy_" + type.replace('-', '_');
    }

    /**
     * The script of the launcher for agent {@code provider}, running {@code java} on {@code jar}
     * ({@code launcher.sh}, filled in). It names the provider's class, which a one-shot call builds without
     * ServiceLoader. It uses a class-data sharing archive of the classes this agent's runs load
     * ({@code <jar>.<launcher>.jsa}): a run that acts on the device and finds none, or one older than the jar or the
     * JVM (which would reject it), writes one as it exits, into a temporary file moved in place, so that concurrent
     * runs never read half an archive; {@code metadata} and {@code validate-all}, Pacemaker's first calls, load too
     * few classes to write it. The JVM's CDS messages are off, since stdout is the protocol's. With a resident
     * {@code residence}, calls go to the jar's {@link AgentServer} when one runs, and a device action that finds none
     * starts one.
     */
    static String script(FenceAgentProvider provider, Path java, Path jar, Residence residence) {
        String type = provider.type();
        return TEMPLATE.replace("@MARKER@", MARKER).replace("@NAME@", name(type)).replace("@TYPE@", type)
                .replace("@PROVIDER@", provider.getClass().getName())
                .replace("@JAVA@", quote(java.toString())).replace("@JAR@", quote(jar.toString()))
                .replace("@FLAGS@", String.join(" ", JVM_FLAGS)).replace("@COMMAND@", FenceAgentProtocol.COMMAND)
                .replace("@RESIDENT@", residence.resident() ? "yes" : "no")
                .replace("@SERVER_FLAGS@", String.join(" ", SERVER_FLAGS))
                .replace("@SERVER_COMMAND@", AgentServer.COMMAND)
                .replace("@IDLE@", Long.toString(residence.idle().toSeconds()));
    }

    /**
     * Whether launchers use a resident agent server, and how long it stays without a call.
     *
     * @param resident whether they do
     * @param idle     how long the server stays up without a call (whole seconds)
     */
    public record Residence(boolean resident, Duration idle) {

        /** One JVM per call, nothing left running. */
        public static final Residence ONE_SHOT = new Residence(false, AgentServer.DEFAULT_IDLE);

        /** A resident server that stops after {@code idle} without a call. */
        public static Residence resident(Duration idle) {
            return new Residence(true, idle);
        }
    }

    /**
     * Writes a launcher for each of {@code providers} into {@code dir}, replacing launchers written before; returns
     * the files written. Nothing is written if one of them would replace a file that is not a launcher.
     *
     * @throws RemedyException naming each file that is in the way, or the directory that cannot be written
     */
    public static List<Path> install(Path dir, List<FenceAgentProvider> providers, Path java, Path jar,
                                     Residence residence) {
        if (!Files.isDirectory(dir)) {
            throw new RemedyException("fence-agents install: '" + dir + "' is not a directory; give the directory "
                    + "where Pacemaker looks for fence agents (/usr/sbin)");
        }
        List<String> inTheWay = new ArrayList<>();
        for (FenceAgentProvider provider : providers) {
            Path file = dir.resolve(name(provider.type()));
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !isLauncher(file)) {
                inTheWay.add(file.toString());
            }
        }
        if (!inTheWay.isEmpty()) {
            throw new RemedyException("fence-agents install: " + String.join(", ", inTheWay) + (inTheWay.size() == 1
                    ? " exists and is not" : " exist and are not") + " a launcher written by remedy; nothing was "
                    + "written. Move them away, or install into another directory");
        }
        List<Path> written = new ArrayList<>();
        for (FenceAgentProvider provider : providers) {
            written.add(write(dir.resolve(name(provider.type())), script(provider, java, jar, residence)));
        }
        return List.copyOf(written);
    }

    /**
     * The java a launcher runs: {@code $JAVA_HOME/bin/java} when JAVA_HOME is set, else the first {@code java} on
     * PATH (as {@code command -v java} finds it), else the java running this command.
     */
    public static Path java(Map<String, String> environment) {
        Optional<Path> home = Optional.ofNullable(environment.get("JAVA_HOME")).filter(h -> !h.isBlank())
                .map(h -> Path.of(h, "bin", "java")).filter(Files::isExecutable);
        if (home.isPresent()) {
            return home.get().toAbsolutePath();
        }
        String path = environment.getOrDefault("PATH", "");
        for (String entry : path.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty()) {
                Path candidate = Path.of(entry, "java");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate.toAbsolutePath();
                }
            }
        }
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static String template() {
        try (InputStream in = Launchers.class.getResourceAsStream("launcher.sh")) {
            if (in == null) {
                throw new IllegalStateException("launcher.sh is missing from remedy.jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read launcher.sh from remedy.jar", e);
        }
    }

    private static boolean isLauncher(Path file) {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > 64 * 1024) {
                return false;
            }
            return Files.readString(file, StandardCharsets.UTF_8).lines().anyMatch(l -> l.startsWith(MARKER));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    private static Path write(Path file, String script) {
        Path temporary = null;
        try {
            temporary = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
            Files.writeString(temporary, script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException | UnsupportedOperationException e) {
            deleteQuietly(temporary);
            throw new RemedyException("fence-agents install: cannot write " + file + ": " + e
                    + "; run as a user who may write " + file.getParent() + " (root for /usr/sbin)", e);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // the write failed already: that is what the user is told
            }
        }
    }

    /** {@code text} in single quotes for sh, its own single quotes escaped. */
    static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
