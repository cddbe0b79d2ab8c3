package dev.remedy.fence.ssh.internal.profile;

import dev.remedy.config.profiles.CatalogProfile;
import dev.remedy.spi.FencingKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What remedy knows of one device's command line, as data: how its prompt looks, what it asks in the middle of a
 * command, which replies are errors, and the commands of each action. Read from YAML by {@link ProfileReader};
 * the built-in ones are in {@link ProfileCatalog}. Immutable.
 *
 * @param name          the profile's name, as the {@code profile} parameter gives it
 * @param description   one line on the device and firmware it is for
 * @param kind          power (outlets), fabric (switch or storage ports) or soft (the host itself)
 * @param prompt        the whole last line when the device waits for a command
 * @param plug          the form a plug must have in full, so that no plug can smuggle a command in (empty for
 *                      devices without plugs)
 * @param setup         commands sent once after login (for example turning paging off)
 * @param pager         what the device prints when it pages, and the key that continues
 * @param confirmations questions the device asks before acting, and their answers
 * @param errors        patterns of reply lines that mean the command failed
 * @param status        how to read a plug's state
 * @param on            the commands that power on (enable) a plug
 * @param off           the commands that power off (isolate) a plug
 * @param list          how to list the plugs, if the device can
 * @param reboot        how a soft-fencing host reboots itself or restarts its node agent
 * @param exit          the command that ends the session politely
 * @param isolationPersists whether the isolation that {@code off} makes survives a restart of the device (a
 *                      persistent port disable, or a saved configuration); only a fabric profile may say so
 * @param enable        how to enter the privileged prompt when the login lands at an unprivileged one (Cisco's
 *                      {@code enable}), if the device has such a mode
 */
public record DeviceProfile(String name, String description, FencingKind kind, Pattern prompt, Optional<Pattern> plug,
        List<String> setup, Optional<Prompt> pager, List<Prompt> confirmations, List<Pattern> errors, StateCheck status,
        List<String> on, List<String> off, Optional<ListCheck> list, Optional<SoftReboot> reboot, String exit,
        boolean isolationPersists, Optional<Enable> enable) implements CatalogProfile {

    /** Copies the lists and checks that the fields are present. */
    public DeviceProfile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(plug, "plug");
        setup = List.copyOf(setup);
        Objects.requireNonNull(pager, "pager");
        confirmations = List.copyOf(confirmations);
        errors = List.copyOf(errors);
        Objects.requireNonNull(status, "status");
        on = List.copyOf(on);
        off = List.copyOf(off);
        Objects.requireNonNull(list, "list");
        Objects.requireNonNull(reboot, "reboot");
        Objects.requireNonNull(exit, "exit");
        Objects.requireNonNull(enable, "enable");
        if (isolationPersists && kind != FencingKind.FABRIC) {
            throw new IllegalArgumentException("only a fabric profile isolates, so only one can say that its isolation"
                    + " persists; " + name + " is " + kind);
        }
    }

    /** The same profile with another prompt (the {@code cmd_prompt} parameter). */
    public DeviceProfile withPrompt(Pattern other) {
        return new DeviceProfile(name, description, kind, other, plug, setup, pager, confirmations, errors, status, on,
                off, list, reboot, exit, isolationPersists, enable);
    }

    /** Whether the profile's commands name a plug. */
    public boolean hasPlugs() {
        return plug.isPresent();
    }

    @Override
    public String toString() {
        return "profile " + name + " (" + kind.name().toLowerCase(java.util.Locale.ROOT) + ": " + description + ")";
    }
}
