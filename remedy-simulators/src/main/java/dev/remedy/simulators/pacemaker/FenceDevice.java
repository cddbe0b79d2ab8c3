package dev.remedy.simulators.pacemaker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A fence device as {@code stonith_admin --register} declares it to the fencer: an id, the fence agent Pacemaker
 * runs for it (looked up in {@code /usr/sbin}) and its options. Secrets are options too, but reach the fencer
 * through {@code stonith_admin --env-option NAME} and the environment variable {@code OCF_RESKEY_NAME}, never
 * through a command line; {@link #toString()} masks them.
 *
 * <p>Pacemaker's own options ({@code pcmk_host_list}, {@code pcmk_host_map}, {@code pcmk_off_timeout}…) go in
 * {@code options} like the agent's.
 *
 * @param id the device's id in the fencer: letters, digits and {@code ._-}
 * @param agent the agent's executable name, {@code fence_} and letters, digits or {@code _}
 * @param options option names (letters, digits, {@code _}) and values, sorted by name
 * @param secrets secret option names and values, sorted by name; no name may also be in {@code options}
 */
public record FenceDevice(String id, String agent, Map<String, String> options, Map<String, String> secrets) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern AGENT = Pattern.compile("fence_[A-Za-z0-9_]+");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

    /** Checks every name and copies the maps (sorted, unmodifiable). */
    public FenceDevice {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agent, "agent");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("fence device id '" + id + "' may only hold letters, digits and ._-");
        }
        if (!AGENT.matcher(agent).matches()) {
            throw new IllegalArgumentException("fence agent '" + agent + "' of device " + id + " must be an "
                    + "executable name like fence_ipmilan (fence_ and letters, digits or _)");
        }
        options = checked(id, "option", options);
        secrets = checked(id, "secret", secrets);
        for (String name : secrets.keySet()) {
            if (options.containsKey(name)) {
                throw new IllegalArgumentException("fence device " + id + " has '" + name + "' both as an option "
                        + "and as a secret; keep one");
            }
        }
    }

    /** A device with no options yet. */
    public static FenceDevice of(String id, String agent) {
        return new FenceDevice(id, agent, Map.of(), Map.of());
    }

    /** This device with one more option (or a new value for it). */
    public FenceDevice withOption(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(options);
        more.put(name, value);
        return new FenceDevice(id, agent, more, secrets);
    }

    /** This device with more options (or new values for them). */
    public FenceDevice withOptions(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(options);
        all.putAll(more);
        return new FenceDevice(id, agent, all, secrets);
    }

    /** This device with one more secret option (a password), passed through the environment. */
    public FenceDevice withSecret(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(secrets);
        more.put(name, value);
        return new FenceDevice(id, agent, options, more);
    }

    /** The arguments of {@code stonith_admin} that register this device: no secret value among them. */
    List<String> registerArguments() {
        List<String> arguments = new ArrayList<>(List.of("--register", id, "--agent", agent));
        options.forEach((name, value) -> arguments.addAll(List.of("--option", name + "=" + value)));
        secrets.keySet().forEach(name -> arguments.addAll(List.of("--env-option", name)));
        return List.copyOf(arguments);
    }

    /** The environment of that {@code stonith_admin}: {@code OCF_RESKEY_<name>} for every secret. */
    Map<String, String> registerEnvironment() {
        Map<String, String> environment = new TreeMap<>();
        secrets.forEach((name, value) -> environment.put("OCF_RESKEY_" + name, value));
        return Collections.unmodifiableMap(environment);
    }

    @Override
    public String toString() {
        Map<String, String> masked = new TreeMap<>(options);
        secrets.keySet().forEach(name -> masked.put(name, "****"));
        return "FenceDevice[" + id + ", " + agent + ", " + masked + "]";
    }

    private static Map<String, String> checked(String id, String kind, Map<String, String> entries) {
        Objects.requireNonNull(entries, kind + "s");
        Map<String, String> sorted = new TreeMap<>();
        entries.forEach((name, value) -> {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(kind + " name '" + name + "' of fence device " + id
                        + " may only hold letters, digits and _");
            }
            if (value == null || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
                throw new IllegalArgumentException(kind + " " + name + " of fence device " + id + " needs a value "
                        + "without line breaks (the fencer passes options to the agent one per line)");
            }
            sorted.put(name, value);
        });
        return Collections.unmodifiableMap(sorted);
    }
}
