package dev.remedy.fence.ssh;

import dev.remedy.fence.ssh.internal.profile.DeviceProfile;
import dev.remedy.fence.ssh.internal.profile.ListCheck;
import dev.remedy.fence.ssh.internal.profile.Placeholders;
import dev.remedy.fence.ssh.internal.profile.SoftReboot;
import dev.remedy.fence.ssh.internal.profile.StateCheck;
import dev.remedy.fence.ssh.internal.session.DeviceShell;
import dev.remedy.fence.ssh.internal.session.SshException;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One action on one SSH device: log in, read or change every plug of the node through the profile, confirm by
 * reading back, log out. OFF succeeds only when every plug reads off; STATUS is ON if any plug is on. REBOOT of a
 * power device is OFF confirmed, {@code reboot_off_time} off, then ON confirmed; of a soft-fencing host, the profile's own commands with their
 * evidence (a new boot id, or the node agent active again). The session is always closed.
 */
final class SshRun {

    private static final Logger LOG = LoggerFactory.getLogger(SshRun.class);

    private final SshSettings settings;
    private final DeviceProfile profile;
    private final FenceContext context;
    private final long deadline;
    private int commands;

    SshRun(SshSettings settings, FenceContext context) {
        this.settings = settings;
        this.profile = settings.profile();
        this.context = context;
        this.deadline = System.nanoTime() + context.remaining().toNanos();
    }

    /** Runs {@code action}; every failure becomes an outcome. */
    FenceOutcome run(FenceAction action) throws InterruptedException {
        long start = System.nanoTime();
        Optional<String> loose = settings.plugs().stream().filter(plug -> !Placeholders.isWord(plug)).findFirst();
        if (loose.isPresent()) {
            // checked when configured too; checked again here so that no path sends a plug that is two commands
            return FenceOutcome.of(FenceStatus.REFUSED, PowerState.UNKNOWN, "plug '"
                    + Placeholders.printable(loose.get()) + "' is not one word (letters, digits and . _ - / : + @ only);"
                    + " nothing was sent to " + settings.device() + ": fix plug").withAttempts(1)
                    .withElapsed(Duration.ofNanos(System.nanoTime() - start));
        }
        if (settings.login().legacy()) {
            LOG.warn("legacy SSH algorithms (SHA-1, CBC, ssh-rsa) are allowed for {} (ssh_legacy_algorithms=true):"
                    + " update its firmware", settings.device());
        }
        if (settings.insecure()) {
            LOG.warn("host key verification is OFF for {} (ssh_insecure=true): anyone on the network path can pose as"
                    + " the device", settings.device());
        }
        FenceOutcome outcome;
        try {
            outcome = switch (action) {
                case STATUS -> inSession(this::status);
                case MONITOR -> inSession(talk -> FenceOutcome.succeeded(PowerState.UNKNOWN, settings.device()
                        + " answers with its prompt"));
                case LIST -> inSession(this::list);
                case OFF -> inSession(talk -> change(talk, PowerState.OFF));
                case ON -> inSession(talk -> change(talk, PowerState.ON));
                case REBOOT -> profile.reboot().isPresent() ? softReboot(profile.reboot().get()) : powerCycle();
            };
        } catch (SshException e) {
            outcome = FenceOutcome.of(status(e), PowerState.UNKNOWN, e.getMessage()).withCause(e);
        }
        return outcome.withAttempts(Math.max(1, commands)).withElapsed(Duration.ofNanos(System.nanoTime() - start));
    }

    private static FenceStatus status(SshException e) {
        return switch (e.kind()) {
            case HOST_KEY_UNKNOWN, HOST_KEY_CHANGED -> FenceStatus.REFUSED;
            case TIMEOUT -> FenceStatus.TIMED_OUT;
            default -> FenceStatus.FAILED;
        };
    }

    /** A step run inside one logged-in session. */
    private interface Step {
        FenceOutcome run(Conversation talk) throws SshException, InterruptedException;
    }

    private FenceOutcome inSession(Step step) throws SshException, InterruptedException {
        context.progress("logging in to " + settings.device());
        try (DeviceShell shell = DeviceShell.open(settings.login(), cap(settings.loginTimeout()))) {
            Conversation talk = new Conversation(shell, profile, settings.shellTimeout(), deadline);
            try {
                talk.start(cap(settings.loginTimeout()), settings.enablePassword());
                return step.run(talk);
            } finally {
                commands += talk.commands();
                talk.exit();
            }
        }
    }

    private FenceOutcome status(Conversation talk) throws SshException, InterruptedException {
        Map<String, PowerState> states = read(talk);
        PowerState power = combined(states);
        return FenceOutcome.succeeded(power, describe(states)).withPlugs(plugs(states));
    }

    private FenceOutcome change(Conversation talk, PowerState wanted) throws SshException, InterruptedException {
        Map<String, PowerState> before = read(talk);
        List<String> toChange = before.entrySet().stream().filter(e -> e.getValue() != wanted).map(Map.Entry::getKey)
                .toList();
        if (toChange.isEmpty()) {
            return FenceOutcome.succeeded(wanted, describe(before) + ": already " + wanted).withPlugs(plugs(before));
        }
        for (String plug : toChange) {
            context.progress("turning " + what(plug) + " " + wanted);
            for (String command : wanted == PowerState.OFF ? profile.off() : profile.on()) {
                talk.command(Placeholders.command(command, plug));
            }
        }
        long until = until(settings.powerTimeout());
        Map<String, PowerState> now = read(talk);
        while (combinedIs(now, wanted) == false) {
            if (System.nanoTime() - until >= 0) {
                String detail = describe(now) + " after " + settings.powerTimeout().toMillis() + " ms";
                return (until == deadline ? FenceOutcome.of(FenceStatus.TIMED_OUT, combined(now), "not every plug "
                        + "reads " + wanted + " by the action's deadline: " + detail)
                        : FenceOutcome.failed(combined(now), "not every plug reads " + wanted + " within power_timeout: "
                        + detail)).withPlugs(plugs(now));
            }
            pause(until);
            now = read(talk);
        }
        return FenceOutcome.succeeded(wanted, describe(now) + " (confirmed)").withPlugs(plugs(now));
    }

    private FenceOutcome powerCycle() throws SshException, InterruptedException {
        return inSession(talk -> {
            FenceOutcome off = change(talk, PowerState.OFF);
            if (!off.isSuccess()) {
                return off;
            }
            context.progress("keeping the power off for reboot_off_time (" + settings.rebootOffTime().toMillis()
                    + " ms)");
            context.sleep(settings.rebootOffTime());
            FenceOutcome on = change(talk, PowerState.ON);
            return on.isSuccess() ? FenceOutcome.succeeded(PowerState.ON, "OFF confirmed, then ON confirmed: "
                    + on.detail()).withPlugs(on.plugs()) : FenceOutcome.of(on.status(), on.power(), "OFF confirmed, "
                    + "but ON failed: " + on.detail()).withPlugs(on.plugs());
        });
    }

    private FenceOutcome list(Conversation talk) throws SshException, InterruptedException {
        Optional<ListCheck> check = profile.list();
        if (check.isEmpty()) {
            return FenceOutcome.of(FenceStatus.UNSUPPORTED, PowerState.UNKNOWN, "profile " + profile.name()
                    + " has no list command");
        }
        List<Plug> plugs = new ArrayList<>();
        for (String line : talk.command(check.get().command())) {
            Matcher item = check.get().item().matcher(line);
            if (item.find()) {
                String alias = check.get().item().pattern().contains("(?<alias>") ? item.group("alias").strip() : "";
                plugs.add(new Plug(item.group("plug"), alias, check.get().on().matcher(item.group("state")).matches()
                        ? PowerState.ON : PowerState.OFF));
            }
        }
        return FenceOutcome.succeeded(PowerState.UNKNOWN, plugs.size() + " plugs on " + settings.device())
                .withPlugs(plugs);
    }

    private FenceOutcome softReboot(SoftReboot reboot) throws SshException, InterruptedException {
        Optional<String> bootBefore = Optional.empty();
        DeviceShell shell = DeviceShell.open(settings.login(), cap(settings.loginTimeout()));
        try {
            Conversation talk = new Conversation(shell, profile, settings.shellTimeout(), deadline);
            try {
                talk.start(cap(settings.loginTimeout()), settings.enablePassword());
                if (reboot.identity().isPresent()) {
                    bootBefore = Optional.of(identity(talk, reboot.identity().get()));
                }
                List<String> commands = reboot.commands();
                for (int i = 0; i < commands.size(); i++) {
                    context.progress("asking the host to act: " + commands.get(i));
                    if (reboot.disconnects() && i == commands.size() - 1) {
                        talk.commandThatDisconnects(commands.get(i));
                    } else {
                        talk.command(commands.get(i));
                    }
                }
                if (!reboot.disconnects()) {
                    return confirm(talk, reboot.confirm().orElseThrow());
                }
            } finally {
                commands += talk.commands();
                talk.exit();
            }
        } finally {
            shell.close();
        }
        return awaitReturn(reboot, bootBefore.orElseThrow());
    }

    private FenceOutcome confirm(Conversation talk, StateCheck check) throws SshException, InterruptedException {
        long until = until(settings.powerTimeout());
        Pattern confirmed = check.onPattern("");
        while (true) {
            List<String> reply = talk.command(check.command());
            if (reply.stream().anyMatch(line -> confirmed.matcher(line).find())) {
                return FenceOutcome.succeeded(PowerState.ON, settings.device() + ": '" + check.command() + "' reads "
                        + String.join(" ", reply).strip() + " after the soft fence (confirmed)");
            }
            if (System.nanoTime() - until >= 0) {
                return timeUp(until, "'" + check.command() + "' still reads " + String.join(" ", reply).strip());
            }
            pause(until);
        }
    }

    private FenceOutcome awaitReturn(SoftReboot reboot, String bootBefore) throws InterruptedException,
            SshException {
        context.progress("the host closed the session; waiting for it to come back with a new boot id");
        long until = until(settings.powerTimeout());
        String last = "no answer";
        while (System.nanoTime() - until < 0) {
            pause(until);
            try (DeviceShell shell = DeviceShell.open(settings.login(), cap(settings.loginTimeout()))) {
                Conversation talk = new Conversation(shell, profile, settings.shellTimeout(), deadline);
                try {
                    talk.start(cap(settings.loginTimeout()), settings.enablePassword());
                    String bootNow = identity(talk, reboot.identity().orElseThrow());
                    if (!bootNow.equals(bootBefore)) {
                        return FenceOutcome.succeeded(PowerState.ON, settings.device() + " rebooted: boot id "
                                + bootBefore + " became " + bootNow + " (confirmed)");
                    }
                    last = "the boot id is still " + bootNow;
                } finally {
                    commands += talk.commands();
                    talk.exit();
                }
            } catch (SshException e) {
                // a booting host refuses connections, or logins until it is ready; a different host key never passes
                if (e.kind() == SshException.Kind.HOST_KEY_CHANGED || e.kind() == SshException.Kind.HOST_KEY_UNKNOWN) {
                    throw e;
                }
                last = e.getMessage();
            }
        }
        return timeUp(until, "the host did not come back with a new boot id: " + last);
    }

    private FenceOutcome timeUp(long until, String detail) {
        return until == deadline ? FenceOutcome.of(FenceStatus.TIMED_OUT, PowerState.UNKNOWN, detail
                + " by the action's deadline") : FenceOutcome.failed(PowerState.UNKNOWN, detail + " within power_timeout ("
                + settings.powerTimeout().toMillis() + " ms)");
    }

    private String identity(Conversation talk, String command) throws SshException, InterruptedException {
        List<String> reply = talk.command(command);
        if (reply.size() != 1 || reply.get(0).isBlank()) {
            throw new SshException(SshException.Kind.PROTOCOL, settings.device() + " answered " + reply + " to '"
                    + command + "', not one line of boot identity");
        }
        return reply.get(0).strip();
    }

    private Map<String, PowerState> read(Conversation talk) throws SshException, InterruptedException {
        Map<String, PowerState> states = new LinkedHashMap<>();
        List<String> plugs = settings.plugs().isEmpty() ? List.of("") : settings.plugs();
        for (String plug : plugs) {
            states.put(plug, read(talk, plug));
        }
        return states;
    }

    private PowerState read(Conversation talk, String plug) throws SshException, InterruptedException {
        StateCheck check = profile.status();
        String command = Placeholders.command(check.command(), plug);
        List<String> reply = talk.command(command);
        Pattern onPattern = check.onPattern(plug);
        boolean on = reply.stream().anyMatch(line -> onPattern.matcher(line).find());
        boolean off = check.offPattern(plug).map(p -> reply.stream().anyMatch(line -> p.matcher(line).find()))
                .orElse(false);
        if (on == off) {
            String shown = String.join(" | ", reply.subList(0, Math.min(4, reply.size()))).strip();
            throw new SshException(SshException.Kind.PROTOCOL, settings.device() + ": the reply to '" + command + "' "
                    + (on ? "matches both status.on and status.off (" + shown + "); remedy never guesses a power state:"
                    + " fix the profile's status patterns" : "is not a state profile " + profile.name() + " knows ("
                    + shown + "): it matches neither status.on nor status.off, and remedy never guesses a power state;"
                    + " if the word means enabled or disabled, add the device's word to status.on or status.off in a"
                    + " profile_file"));
        }
        return on ? PowerState.ON : PowerState.OFF;
    }

    private static PowerState combined(Map<String, PowerState> states) {
        return states.containsValue(PowerState.ON) ? PowerState.ON : PowerState.OFF;
    }

    private static boolean combinedIs(Map<String, PowerState> states, PowerState wanted) {
        return states.values().stream().allMatch(state -> state == wanted);
    }

    private String describe(Map<String, PowerState> states) {
        if (settings.plugs().isEmpty()) {
            return settings.device() + " reads " + states.get("");
        }
        StringBuilder text = new StringBuilder(settings.device() + ":");
        states.forEach((plug, state) -> text.append(' ').append(what(plug)).append(' ').append(state).append(','));
        text.setLength(text.length() - 1);
        return text.toString();
    }

    private static List<Plug> plugs(Map<String, PowerState> states) {
        return states.entrySet().stream().filter(e -> !e.getKey().isEmpty())
                .map(e -> new Plug(e.getKey(), "", e.getValue())).toList();
    }

    private String what(String plug) {
        return "plug " + plug;
    }

    private void pause(long until) throws InterruptedException {
        long left = Math.min(until, deadline) - System.nanoTime();
        long wait = Math.min(settings.pollInterval().toNanos(), Math.max(0, left));
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    private long until(Duration timeout) {
        long wanted = System.nanoTime() + timeout.toNanos();
        return wanted - deadline < 0 ? wanted : deadline;
    }

    private Duration cap(Duration timeout) {
        long left = deadline - System.nanoTime();
        return Duration.ofNanos(Math.max(1_000_000, Math.min(timeout.toNanos(), left)));
    }
}
