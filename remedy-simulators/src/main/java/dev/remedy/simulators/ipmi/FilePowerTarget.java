package dev.remedy.simulators.ipmi;

import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * The machine behind an {@code ipmi_sim}: a state file holding {@code 1} (on) or {@code 0} (off) and a history
 * file with one {@code ON}/{@code OFF} line per state entered, shared with the chassis-control script that
 * {@code ipmi_sim} runs. Both sides replace the state file atomically (write, then rename). Thread-safe within
 * this JVM.
 */
final class FilePowerTarget implements PowerTarget {

    private final Path stateFile;
    private final Path historyFile;

    FilePowerTarget(Path stateFile, Path historyFile) {
        this.stateFile = stateFile;
        this.historyFile = historyFile;
    }

    /** ON for {@code 1}, OFF for {@code 0}, UNKNOWN if the file is missing or holds anything else. */
    @Override
    public synchronized PowerState power() {
        try {
            String value = Files.readString(stateFile, StandardCharsets.US_ASCII).trim();
            return switch (value) {
                case "1" -> PowerState.ON;
                case "0" -> PowerState.OFF;
                default -> PowerState.UNKNOWN;
            };
        } catch (NoSuchFileException e) {
            return PowerState.UNKNOWN;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ipmi_sim power state file " + stateFile, e);
        }
    }

    /** Writes the state file directly and, if the state changed, appends it to the history. */
    @Override
    public synchronized void power(PowerState state) {
        if (state != PowerState.ON && state != PowerState.OFF) {
            throw new IllegalArgumentException("an ipmi_sim machine is either ON or OFF, not " + state);
        }
        PowerState before = power();
        try {
            Path temporary = stateFile.resolveSibling(stateFile.getFileName() + ".java.tmp");
            Files.writeString(temporary, state == PowerState.ON ? "1\n" : "0\n", StandardCharsets.US_ASCII);
            Files.move(temporary, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            if (before != state) {
                Files.writeString(historyFile, state.name() + "\n", StandardCharsets.US_ASCII,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ipmi_sim power state file " + stateFile, e);
        }
    }

    @Override
    public synchronized List<PowerState> history() {
        try {
            if (!Files.exists(historyFile)) {
                return List.of();
            }
            return Files.readAllLines(historyFile, StandardCharsets.US_ASCII).stream()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty())
                    .map(line -> PowerState.valueOf(line.toUpperCase(Locale.ROOT)))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ipmi_sim power history " + historyFile, e);
        }
    }

    @Override
    public synchronized void clearHistory() {
        try {
            Files.writeString(historyFile, "", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear the ipmi_sim power history " + historyFile, e);
        }
    }

    @Override
    public String toString() {
        return "FilePowerTarget[" + stateFile + "]";
    }
}
