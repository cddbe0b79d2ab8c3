package dev.remedy.fence.snmp;

import dev.remedy.fence.snmp.SnmpFenceAgent.Found;
import dev.remedy.fence.snmp.SnmpFenceAgent.Memory;
import dev.remedy.fence.snmp.internal.profile.DeviceProfile;
import dev.remedy.fence.snmp.internal.profile.DeviceReboot;
import dev.remedy.fence.snmp.internal.profile.Oid;
import dev.remedy.fence.snmp.internal.profile.ProfileChoice;
import dev.remedy.fence.snmp.internal.profile.StateRead;
import dev.remedy.fence.snmp.internal.profile.Write;
import dev.remedy.fence.snmp.internal.session.SnmpException;
import dev.remedy.fence.snmp.internal.session.SnmpSession;
import dev.remedy.fence.snmp.internal.session.SnmpValue;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.SecretScrubber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One action on one SNMP device: open a session, settle which table of the profile the device answers (for a
 * choice), find each plug's index (a name is looked up in the profile's name columns), then read or switch every plug
 * of the node, each on its own: a SET, then reads of that plug until it shows the new state. OFF succeeds only when
 * every plug reads off at the end; STATUS is ON if any plug is on. A value that is neither the profile's on, off nor
 * pending value fails the action: the agent never guesses a state. The session is always closed.
 */
final class SnmpRun {

    /** The longest reboot delay a device may report: the off time of a PDU outlet is seconds to minutes. */
    private static final long MAX_REBOOT_DELAY_SECONDS = 3_600;

    private final SnmpSettings settings;
    private final Memory memory;
    private final FenceContext context;
    private DeviceProfile table;
    private SnmpSession session;

    SnmpRun(SnmpSettings settings, Memory memory, FenceContext context) {
        this.settings = settings;
        this.memory = memory;
        this.context = context;
    }

    /** Runs {@code action}; every failure becomes an outcome. */
    FenceOutcome run(FenceAction action) throws InterruptedException {
        int requests = 0;
        FenceOutcome outcome;
        context.progress("talking to " + device());
        try (SnmpSession opened = SnmpSession.open(settings.endpoint(), settings.requestTimeout(), settings.retries(),
                context)) {
            session = opened;
            try {
                table = table();
                Map<String, String> indexes = indexes();
                outcome = switch (action) {
                    case STATUS -> status(indexes);
                    case MONITOR -> monitor(indexes);
                    case LIST -> list();
                    case OFF -> change(indexes, PowerState.OFF);
                    case ON -> change(indexes, PowerState.ON);
                    case REBOOT -> settings.deviceReboot() ? deviceReboot(indexes) : cycle(indexes);
                };
            } finally {
                requests = opened.requests();
            }
        } catch (SnmpException e) {
            outcome = FenceOutcome.of(status(e), PowerState.UNKNOWN, e.getMessage()).withCause(e);
        } catch (Refusal e) {
            outcome = e.outcome;
        }
        return scrubbed(outcome).withAttempts(Math.max(1, requests)).withElapsed(context.elapsed());
    }

    /**
     * The outcome with every secret masked in its detail and plug names: they quote what the device answered (a
     * value that is no state, an outlet's name), text the agent does not control.
     */
    private FenceOutcome scrubbed(FenceOutcome outcome) {
        SecretScrubber scrubber = settings.scrubber();
        List<Plug> plugs = outcome.plugs().stream().map(p -> new Plug(p.id(), scrubber.scrub(p.alias()), p.power()))
                .toList();
        return new FenceOutcome(outcome.status(), outcome.power(), scrubber.scrub(outcome.detail()), outcome.cause(),
                outcome.attempts(), outcome.elapsed(), plugs);
    }

    private static FenceStatus status(SnmpException e) {
        return e.kind() == SnmpException.Kind.DEADLINE ? FenceStatus.TIMED_OUT : FenceStatus.FAILED;
    }

    // --- which table, which index ---

    private DeviceProfile table() throws SnmpException, InterruptedException, Refusal {
        if (!(settings.profile() instanceof ProfileChoice choice)) {
            return (DeviceProfile) settings.profile();
        }
        if (memory.chosen().isPresent()) {
            return memory.chosen().get();
        }
        String plug = settings.plugs().get(0);
        List<String> answers = new ArrayList<>();
        for (DeviceProfile candidate : choice.candidates()) {
            context.progress("asking whether the device answers profile " + candidate.name());
            table = candidate;
            Optional<String> index = candidate.indexOf(plug).isPresent() ? candidate.indexOf(plug)
                    : lookUp(plug, false);
            if (index.isEmpty()) {
                answers.add(candidate.name() + ": no plug named '" + plug + "'");
                continue;
            }
            String oid = candidate.status().oid().of(index.get());
            SnmpValue value = session.get(oid);
            if (value instanceof SnmpValue.Number) {
                memory.chosen(candidate);
                return candidate;
            }
            answers.add(candidate.name() + ": " + oid + " is " + value);
        }
        throw new Refusal(FenceOutcome.failed(PowerState.UNKNOWN, settings.endpoint().describe() + " answers none of"
                + " the tables of profile " + choice.name() + " for plug " + plug + " (" + String.join("; ", answers)
                + "): check plug, or name the device's profile"));
    }

    private Map<String, String> indexes() throws SnmpException, InterruptedException, Refusal {
        Map<String, String> indexes = new LinkedHashMap<>();
        for (String plug : settings.plugs()) {
            Optional<String> index = table.indexOf(plug);
            if (index.isEmpty()) {
                index = lookUp(plug, true);
            }
            indexes.put(plug, index.orElseThrow());
        }
        return indexes;
    }

    /**
     * The index of a plug given by name: where it was found before if the device still shows that name there, else
     * looked up in the name columns. Exactly one row of a column must carry the name.
     *
     * @param required whether a name no column has is an error (else empty)
     */
    private Optional<String> lookUp(String plug, boolean required) throws SnmpException, InterruptedException,
            Refusal {
        if (!table.mayName(plug)) {
            throw new Refusal(FenceOutcome.refused("plug '" + plug + "' is not a plug of profile " + table.name()
                    + "; nothing was sent: give a plug of the form " + table.plug().pattern()));
        }
        Optional<Found> known = memory.found(plug).filter(found -> found.table().equals(table.name()));
        if (known.isPresent()) {
            SnmpValue name = session.get(known.get().column() + "." + known.get().index());
            if (name instanceof SnmpValue.Text text && text.text().equals(plug)) {
                return Optional.of(known.get().index());
            }
            memory.forget(plug);
        }
        for (Oid column : table.names()) {
            context.progress("looking up " + what(plug) + " under " + column);
            List<String> rows = new ArrayList<>();
            session.walk(column.template()).forEach((index, value) -> {
                if (value instanceof SnmpValue.Text text && text.text().equals(plug)) {
                    rows.add(index);
                }
            });
            if (rows.size() > 1) {
                throw new Refusal(FenceOutcome.refused(device() + ": " + rows.size() + " rows of " + column
                        + " are named '" + plug + "' (indexes " + rows + "); nothing was switched: give the plug by "
                        + "its index"));
            }
            if (rows.size() == 1) {
                memory.found(plug, new Found(table.name(), column.template(), rows.get(0)));
                return Optional.of(rows.get(0));
            }
        }
        if (required) {
            throw new Refusal(FenceOutcome.failed(PowerState.UNKNOWN, device() + " has no plug named '"
                    + plug + "' under " + table.names() + ": check plug (names are matched exactly), or give its "
                    + "index"));
        }
        return Optional.empty();
    }

    // --- actions ---

    private FenceOutcome status(Map<String, String> indexes) throws SnmpException, InterruptedException, Refusal {
        Map<String, PowerState> states = new LinkedHashMap<>();
        long until = until(settings.powerTimeout());
        for (Map.Entry<String, String> plug : indexes.entrySet()) {
            states.put(plug.getKey(), settled(plug.getKey(), plug.getValue(), until));
        }
        return FenceOutcome.succeeded(combined(states), describe(states)).withPlugs(plugs(states));
    }

    private FenceOutcome monitor(Map<String, String> indexes) throws SnmpException, InterruptedException, Refusal {
        FenceOutcome status = status(indexes);
        return FenceOutcome.succeeded(PowerState.UNKNOWN, device() + " answers for every plug: "
                + status.detail());
    }

    private FenceOutcome list() throws SnmpException, InterruptedException {
        if (table.names().isEmpty()) {
            return FenceOutcome.of(FenceStatus.UNSUPPORTED, PowerState.UNKNOWN, "profile " + table.name()
                    + " has no name column to list plugs from");
        }
        Map<String, SnmpValue> names = session.walk(table.names().get(0).template());
        Map<String, SnmpValue> states = table.status().oid().column().isPresent()
                ? session.walk(table.status().oid().column().get()) : Map.of();
        List<Plug> plugs = new ArrayList<>();
        names.forEach((index, name) -> {
            SnmpValue state = states.get(index);
            PowerState power = state == null ? PowerState.UNKNOWN : meaning(table.status(), state)
                    .filter(p -> p != PowerState.UNKNOWN).orElse(PowerState.UNKNOWN);
            plugs.add(new Plug(table.plugOf(index).orElse(index), name instanceof SnmpValue.Text text ? text.text()
                    : name.toString(), power));
        });
        return FenceOutcome.succeeded(PowerState.UNKNOWN, plugs.size() + " plugs on " + device())
                .withPlugs(plugs);
    }

    /** Switches every plug that is not in {@code wanted} state, one after the other, each read back on its own. */
    private FenceOutcome change(Map<String, String> indexes, PowerState wanted) throws SnmpException,
            InterruptedException, Refusal {
        Write write = wanted == PowerState.OFF ? table.off() : table.on();
        int switched = 0;
        for (Map.Entry<String, String> plug : indexes.entrySet()) {
            String name = plug.getKey();
            String index = plug.getValue();
            if (settled(name, index, until(settings.powerTimeout())) != wanted) {
                context.progress("turning " + what(name) + " " + wanted);
                session.set(write.oid().of(index), write.value());
                switched++;
                awaitState(name, index, wanted, until(settings.powerTimeout()));
            }
        }
        Map<String, PowerState> confirmed = new LinkedHashMap<>();
        long until = until(settings.powerTimeout());
        for (Map.Entry<String, String> plug : indexes.entrySet()) {
            confirmed.put(plug.getKey(), settled(plug.getKey(), plug.getValue(), until));
        }
        if (confirmed.values().stream().allMatch(state -> state == wanted)) {
            return FenceOutcome.succeeded(wanted, describe(confirmed) + (switched == 0 ? ": already " + wanted
                    : " (" + switched + " switched, every plug read back)")).withPlugs(plugs(confirmed));
        }
        return FenceOutcome.failed(combined(confirmed), "not every plug reads " + wanted + " at the end: "
                + describe(confirmed) + " (something switched a plug back)").withPlugs(plugs(confirmed));
    }

    private FenceOutcome cycle(Map<String, String> indexes) throws SnmpException, InterruptedException, Refusal {
        FenceOutcome off = change(indexes, PowerState.OFF);
        if (!off.isSuccess()) {
            return off;
        }
        context.progress("keeping the power off for reboot_off_time (" + settings.rebootOffTime().toMillis() + " ms)");
        context.sleep(settings.rebootOffTime());
        FenceOutcome on = change(indexes, PowerState.ON);
        return on.isSuccess() ? FenceOutcome.succeeded(PowerState.ON, "OFF confirmed, then ON confirmed: "
                + on.detail()).withPlugs(on.plugs()) : FenceOutcome.of(on.status(), on.power(), "OFF confirmed, but "
                + "ON failed: " + on.detail()).withPlugs(on.plugs());
    }

    /**
     * The device's own reboot of every outlet: all are started, then confirmed only by one round of reads in which
     * every outlet reads off (the node had no power: outlets rebooted one after the other would leave a node with
     * two power supplies running) and later reads that see each on. Refused before anything is sent if an outlet's
     * off time is not longer than poll_interval: no read could see it off.
     */
    private FenceOutcome deviceReboot(Map<String, String> indexes) throws SnmpException, InterruptedException,
            Refusal {
        DeviceReboot reboot = table.reboot().orElseThrow();
        Map<String, Duration> delays = new LinkedHashMap<>();
        for (Map.Entry<String, String> plug : indexes.entrySet()) {
            String oid = reboot.delay().of(plug.getValue());
            SnmpValue value = session.get(oid);
            if (!(value instanceof SnmpValue.Number seconds) || seconds.value() < 0
                    || seconds.value() > MAX_REBOOT_DELAY_SECONDS) {
                throw new Refusal(FenceOutcome.failed(PowerState.UNKNOWN, device() + ": the reboot off time "
                        + "of " + what(plug.getKey()) + " (" + oid + ") is " + value + ", not 0 to "
                        + MAX_REBOOT_DELAY_SECONDS + " seconds; nothing was switched: use reboot_method=cycle"));
            }
            Duration delay = Duration.ofSeconds(seconds.value());
            if (delay.compareTo(settings.pollInterval()) <= 0) {
                throw new Refusal(FenceOutcome.refused(device() + ": " + what(plug.getKey()) + " stays off "
                        + delay.toSeconds() + " s in the device's reboot, not longer than poll_interval ("
                        + settings.pollInterval().toMillis() + " ms), so no read could see it off; nothing was "
                        + "switched: give a shorter poll_interval, or use reboot_method=cycle"));
            }
            delays.put(plug.getKey(), delay);
        }
        for (Map.Entry<String, String> plug : indexes.entrySet()) {
            context.progress("rebooting " + what(plug.getKey()) + " by the device (off for "
                    + delays.get(plug.getKey()).toSeconds() + " s)");
            session.set(reboot.write().oid().of(plug.getValue()), reboot.write().value());
        }
        Duration shortest = delays.values().stream().min(Duration::compareTo).orElseThrow();
        Duration longest = delays.values().stream().max(Duration::compareTo).orElseThrow();
        long offUntil = until(shortest.plus(settings.powerTimeout()));
        while (true) {
            Map<String, PowerState> round = new LinkedHashMap<>();
            for (Map.Entry<String, String> plug : indexes.entrySet()) {
                round.put(plug.getKey(), read(plug.getKey(), plug.getValue()));
            }
            if (round.values().stream().allMatch(state -> state == PowerState.OFF)) {
                break;
            }
            timeUp(offUntil, "no round of reads saw every plug OFF after the device's reboot (last: "
                    + list(round) + "), so nothing proves the node lost "
                    + "power");
            pause(offUntil);
        }
        Map<String, PowerState> states = new LinkedHashMap<>();
        long onUntil = until(longest.plus(settings.powerTimeout()));
        for (Map.Entry<String, String> plug : indexes.entrySet()) {
            states.put(plug.getKey(), awaitState(plug.getKey(), plug.getValue(), PowerState.ON, onUntil));
        }
        return FenceOutcome.succeeded(PowerState.ON, "the device rebooted every plug, all seen OFF together, then ON: "
                + describe(states)).withPlugs(plugs(states));
    }

    // --- reading ---

    /** Reads a plug until it is not pending, by {@code until}. */
    private PowerState settled(String plug, String index, long until) throws SnmpException, InterruptedException,
            Refusal {
        while (true) {
            PowerState state = read(plug, index);
            if (state != PowerState.UNKNOWN) {
                return state;
            }
            timeUp(until, what(plug) + " is still changing");
            pause(until);
        }
    }

    /** Reads a plug until it is {@code wanted}, by {@code until}. */
    private PowerState awaitState(String plug, String index, PowerState wanted, long until) throws SnmpException,
            InterruptedException, Refusal {
        while (true) {
            PowerState state = read(plug, index);
            if (state == wanted) {
                return state;
            }
            timeUp(until, what(plug) + " reads " + state + ", not " + wanted);
            pause(until);
        }
    }

    /** One read of a plug: ON, OFF, or UNKNOWN for a pending value; anything else ends the action. */
    private PowerState read(String plug, String index) throws SnmpException, InterruptedException, Refusal {
        StateRead status = table.status();
        String oid = status.oid().of(index);
        SnmpValue value = session.get(oid);
        Optional<PowerState> meaning = meaning(status, value);
        if (meaning.isEmpty()) {
            String why = value instanceof SnmpValue.Missing ? ": the device has no such object; check plug (does "
                    + "the outlet or port exist?) and profile" : ", neither on " + status.on() + " nor off "
                    + status.off() + (status.pending().isEmpty() ? "" : " nor pending " + status.pending())
                    + ": remedy never guesses a power state; if the device means on or off by it, say so in a "
                    + "profile_file";
            throw new Refusal(FenceOutcome.failed(PowerState.UNKNOWN, device() + ": " + what(plug)
                    + " reads " + value + " at " + oid + why));
        }
        return meaning.get();
    }

    /** ON, OFF, UNKNOWN for pending, or empty for a value that is none of them. */
    private static Optional<PowerState> meaning(StateRead status, SnmpValue value) {
        if (!(value instanceof SnmpValue.Number number) || number.value() != (int) number.value()) {
            return Optional.empty();
        }
        int code = (int) number.value();
        if (status.on().contains(code)) {
            return Optional.of(PowerState.ON);
        }
        if (status.off().contains(code)) {
            return Optional.of(PowerState.OFF);
        }
        return status.pending().contains(code) ? Optional.of(PowerState.UNKNOWN) : Optional.empty();
    }

    private void timeUp(long until, String detail) throws Refusal {
        if (context.time().nanoTime() - until < 0) {
            return;
        }
        boolean deadline = context.expired();
        throw new Refusal(deadline ? FenceOutcome.of(FenceStatus.TIMED_OUT, PowerState.UNKNOWN, device()
                + ": " + detail + " at the action's deadline") : FenceOutcome.failed(PowerState.UNKNOWN,
                device() + ": " + detail + " after power_timeout (" + settings.powerTimeout().toMillis()
                        + " ms)"));
    }

    private void pause(long until) throws InterruptedException {
        long left = until - context.time().nanoTime();
        Duration wait = Duration.ofNanos(Math.max(0, Math.min(settings.pollInterval().toNanos(), left)));
        context.sleep(wait);
    }

    /** The earlier of now + {@code timeout} and the deadline, on the context's clock. */
    private long until(Duration timeout) {
        long now = context.time().nanoTime();
        long left = context.remaining().toNanos();
        return now + Math.min(timeout.toNanos(), left);
    }

    private static PowerState combined(Map<String, PowerState> states) {
        return states.containsValue(PowerState.ON) ? PowerState.ON : PowerState.OFF;
    }

    private String describe(Map<String, PowerState> states) {
        return device() + ": " + list(states);
    }

    /** The device as messages name it: with the table a choice settled on, once it has (or is trying one). */
    private String device() {
        return table == null ? settings.device()
                : settings.device().replace("profile " + settings.profile().name(), "profile " + table.name());
    }

    /** {@code plug 1 OFF, plug 3 changing}: each plug's state, a pending one as changing. */
    private String list(Map<String, PowerState> states) {
        List<String> parts = new ArrayList<>();
        states.forEach((plug, state) -> parts.add(what(plug) + " " + (state == PowerState.UNKNOWN ? "changing"
                : state)));
        return String.join(", ", parts);
    }

    private static List<Plug> plugs(Map<String, PowerState> states) {
        return states.entrySet().stream().map(e -> new Plug(e.getKey(), "", e.getValue())).toList();
    }

    private String what(String plug) {
        return (table.kind() == FencingKind.FABRIC ? "port " : "plug ") + plug;
    }

    /** An outcome decided inside the run, carried out of it. */
    private static final class Refusal extends Exception {

        private final transient FenceOutcome outcome;

        Refusal(FenceOutcome outcome) {
            super(outcome.detail(), null, false, false);
            this.outcome = outcome;
        }
    }
}
