package dev.remedy.core.store;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A record file that could not be read, and what was done with it.
 *
 * @param file          the record file as it was found
 * @param reason        why it could not be read
 * @param quarantinedAs where it was moved, or empty if moving it failed (it then stays where it was)
 * @param detectedAt    when it was found
 */
public record CorruptRecordFile(Path file, String reason, Optional<Path> quarantinedAs, Instant detectedAt) {

    /** Validates that every field is present. */
    public CorruptRecordFile {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(quarantinedAs, "quarantinedAs");
        Objects.requireNonNull(detectedAt, "detectedAt");
    }

    /** One sentence for people: which file, why, where it went and what to do. */
    public String describe() {
        return quarantinedAs.map(to -> "corrupt fence record file " + file + " (" + reason + ") was moved to " + to
                        + " at " + detectedAt + "; its node falls back to the previous version of its record if that one"
                        + " reads well, and is otherwise held for an admin: inspect the file, then delete it or"
                        + " repair it and move it back")
                .orElse("corrupt fence record file " + file + " (" + reason + ") could not be moved to quarantine;"
                        + " its node is treated as having no record and cannot be saved: move or delete the file");
    }
}
