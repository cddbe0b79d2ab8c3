package dev.remedy.fence.ssh.internal.profile;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a soft-fencing profile asks a host to act on itself, and the evidence that it did.
 *
 * @param commands    the commands, in order
 * @param disconnects whether the last command ends the SSH session (a reboot); the host must then come back
 * @param identity    a command whose output changes with every boot (the kernel's boot id): read before, and
 *                    after the host came back, it must differ
 * @param confirm     a state to read after the commands (for example the node agent active again)
 */
public record SoftReboot(List<String> commands, boolean disconnects, Optional<String> identity,
        Optional<StateCheck> confirm) {

    /** Copies the list and checks that the fields are present. */
    public SoftReboot {
        commands = List.copyOf(commands);
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(confirm, "confirm");
    }
}
