package dev.remedy.cli;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** The parsing of {@code remedy operator}'s options that picocli cannot check: an address, a label selector. */
final class OperatorOptions {

    /** A label name, or a label value when not empty: 63 characters at most, alphanumeric at both ends. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    /** A label key's prefix: a DNS subdomain. */
    private static final Pattern PREFIX = Pattern.compile(
            "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*");
    private static final String SELECTOR_HELP = "; expected KEY=VALUE[,KEY=VALUE...] with Kubernetes label keys and "
            + "values (equality only), e.g. --node-selector node-role.kubernetes.io/worker=,topology.kubernetes.io/"
            + "zone=zone-a";

    private OperatorOptions() {
    }

    /** {@code HOST:PORT} ({@code [IPv6]:PORT}) as an address to listen on. */
    static InetSocketAddress address(String value) {
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "" : value.substring(0, colon);
        String port = colon < 0 ? "" : value.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) {
            throw new UserError("bad --http-address '" + value + "': expected HOST:PORT with a port from 0 to 65535, "
                    + "e.g. 127.0.0.1:8080 or 0.0.0.0:8080 (in a pod)");
        }
        InetSocketAddress address = new InetSocketAddress(host, Integer.parseInt(port));
        if (address.isUnresolved()) {
            throw new UserError("bad --http-address '" + value + "': unknown host '" + host + "'; use an IP address "
                    + "of this machine, or 0.0.0.0 for all");
        }
        return address;
    }

    /** {@code KEY=VALUE[,KEY=VALUE...]} as labels; empty when {@code value} is null or blank. */
    static Map<String, String> selector(String value) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return labels;
        }
        for (String term : value.split(",", -1)) {
            int equals = term.indexOf('=');
            if (equals <= 0 || term.contains("!=") || term.startsWith("==")) {
                throw new UserError("bad --node-selector '" + value + "': '" + term + "' is not KEY=VALUE"
                        + SELECTOR_HELP);
            }
            String key = term.substring(0, equals).trim();
            String label = term.substring(equals + 1).trim();
            if (!validKey(key) || !label.isEmpty() && !NAME.matcher(label).matches()) {
                throw new UserError("bad --node-selector '" + value + "': '" + term + "' is not a valid label"
                        + SELECTOR_HELP);
            }
            if (labels.put(key, label) != null) {
                throw new UserError("bad --node-selector '" + value + "': label '" + key + "' given twice");
            }
        }
        return labels;
    }

    private static boolean validKey(String key) {
        int slash = key.indexOf('/');
        if (slash < 0) {
            return NAME.matcher(key).matches();
        }
        String prefix = key.substring(0, slash);
        return prefix.length() <= 253 && PREFIX.matcher(prefix).matches()
                && NAME.matcher(key.substring(slash + 1)).matches();
    }
}
