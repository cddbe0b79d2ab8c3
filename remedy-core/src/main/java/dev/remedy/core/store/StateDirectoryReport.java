package dev.remedy.core.store;

import dev.remedy.core.flow.NodeFence;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a fence state directory holds, as {@link JsonFileStateStore#inspect(Path)} read it without changing it.
 *
 * @param directory   the directory (absolute)
 * @param records     the records that read well (a corrupt latest version is replaced by its good previous one)
 * @param problems    one sentence per corrupt file found now (left where it is)
 * @param quarantined the files moved to quarantine earlier, by path
 * @param lost        nodes whose record reads well in no version, with why: an engine holds them for an admin
 * @param holder      who holds the directory's lock, if an engine runs on it now
 */
public record StateDirectoryReport(Path directory, List<NodeFence> records, List<String> problems,
                                   List<String> quarantined, Map<String, String> lost, Optional<String> holder) {

    /** Validates that every field is present and copies the collections. */
    public StateDirectoryReport {
        Objects.requireNonNull(directory, "directory");
        records = List.copyOf(records);
        problems = List.copyOf(problems);
        quarantined = List.copyOf(quarantined);
        lost = Map.copyOf(lost);
        Objects.requireNonNull(holder, "holder");
    }
}
