package dev.remedy.simulators.openssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The forced command: {@code apc-cli.sh} (a POSIX sh emulation of the APC AOS CLI) in the work directory and its
 * outlet state file {@code pdu/outlets}, one line per outlet ({@code "3 on"}, {@code "3 off"}). The state lives
 * in its own directory so that the login user, who runs the script, can replace the file without being able to
 * touch the host key or the configuration next to it. Both the script and this class write a temporary file and
 * rename it over the state file, so a reader never sees half a file; two writers at the same moment may lose one
 * change.
 */
final class ApcCli {

    /** The script's name, as a resource next to this class and as a file in the work directory. */
    static final String SCRIPT = "apc-cli.sh";

    private final Path script;
    private final Path stateFile;
    private final int outlets;

    private ApcCli(Path script, Path stateFile, int outlets) {
        this.script = script;
        this.stateFile = stateFile;
        this.outlets = outlets;
    }

    /**
     * Copies the script into {@code workDir} (mode 755) and writes a state file with every outlet on.
     *
     * @throws UncheckedIOException if a file cannot be written
     */
    static ApcCli install(Path workDir, int outlets) {
        Path script = workDir.resolve(SCRIPT);
        Path stateDirectory = workDir.resolve("pdu");
        try (InputStream resource = ApcCli.class.getResourceAsStream(SCRIPT)) {
            if (resource == null) {
                throw new IllegalStateException("resource " + SCRIPT + " is missing from the remedy-simulators jar (package "
                        + ApcCli.class.getPackageName() + "); rebuild remedy-simulators");
            }
            Files.write(script, resource.readAllBytes());
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.createDirectories(stateDirectory);
            Files.setPosixFilePermissions(stateDirectory, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install " + SCRIPT + " into " + workDir, e);
        }
        ApcCli cli = new ApcCli(script, stateDirectory.resolve("outlets"), outlets);
        List<Boolean> allOn = new ArrayList<>();
        for (int i = 0; i < outlets; i++) {
            allOn.add(true);
        }
        cli.write(allOn);
        return cli;
    }

    /** The script sshd runs as its {@code ForceCommand}. */
    Path script() {
        return script;
    }

    /** The outlet state file. */
    Path stateFile() {
        return stateFile;
    }

    /** The directory of the state file, which the login user must own. */
    Path stateDirectory() {
        return stateFile.getParent();
    }

    /**
     * Whether outlet {@code outlet} is on.
     *
     * @throws IllegalArgumentException if there is no such outlet
     * @throws IllegalStateException if the state file is damaged
     */
    synchronized boolean isOn(int outlet) {
        checkOutlet(outlet);
        return read().get(outlet - 1);
    }

    /**
     * Turns outlet {@code outlet} on or off, as {@code olOn}/{@code olOff} would.
     *
     * @throws IllegalArgumentException if there is no such outlet
     */
    synchronized void set(int outlet, boolean on) {
        checkOutlet(outlet);
        List<Boolean> states = read();
        states.set(outlet - 1, on);
        write(states);
    }

    private void checkOutlet(int outlet) {
        if (outlet < 1 || outlet > outlets) {
            throw new IllegalArgumentException("outlet " + outlet + " does not exist: the PDU has outlets 1 to "
                    + outlets);
        }
    }

    private List<Boolean> read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(stateFile, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the outlet state file " + stateFile, e);
        }
        List<Boolean> states = new ArrayList<>();
        for (String line : lines) {
            String expected = (states.size() + 1) + " ";
            if (line.equals(expected + "on") || line.equals(expected + "off")) {
                states.add(line.endsWith(" on"));
            } else {
                throw new IllegalStateException("outlet state file " + stateFile + " is damaged at line "
                        + (states.size() + 1) + " ('" + line + "'; expected '" + expected + "on|off'): " + lines);
            }
        }
        if (states.size() != outlets) {
            throw new IllegalStateException("outlet state file " + stateFile + " has " + states.size()
                    + " outlets instead of " + outlets + ": " + lines);
        }
        return states;
    }

    private void write(List<Boolean> states) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < states.size(); i++) {
            text.append(i + 1).append(states.get(i) ? " on" : " off").append('\n');
        }
        try {
            Path temporary = Files.createTempFile(stateDirectory(), "outlets.", ".tmp");
            Files.writeString(temporary, text, StandardCharsets.US_ASCII);
            // Readable by the login user, who runs the script (the directory is theirs, so they may replace it).
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(temporary, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the outlet state file " + stateFile, e);
        }
    }
}
