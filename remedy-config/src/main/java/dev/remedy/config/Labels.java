package dev.remedy.config;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Kubernetes' rules for label keys and values, with what to write instead when one is broken. A key is an optional
 * DNS-subdomain prefix (at most 253 characters) and a slash, then a name; a name, and a value that is not empty,
 * is at most 63 letters, digits, {@code -}, {@code _} or {@code .}, starting and ending with a letter or digit.
 */
public final class Labels {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final int MAX_PREFIX = 253;

    private Labels() {
    }

    /** What is wrong with {@code key} as a label key, and what to write instead; empty if it is one. */
    public static Optional<String> keyProblem(String key) {
        int slash = key.indexOf('/');
        String prefix = slash < 0 ? "" : key.substring(0, slash);
        String name = key.substring(slash + 1);
        boolean valid = NAME.matcher(name).matches()
                && (slash < 0 || prefix.length() <= MAX_PREFIX && DNS_SUBDOMAIN.matcher(prefix).matches());
        return valid ? Optional.empty() : Optional.of("'" + key + "' is not a label key: give an optional DNS prefix "
                + "and a slash, then a name of up to 63 letters, digits, '-', '_' or '.' that starts and ends with a "
                + "letter or digit, such as node-role.kubernetes.io/worker");
    }

    /** What is wrong with {@code value} as a label value, and what to write instead; empty if it is one. */
    public static Optional<String> valueProblem(String value) {
        boolean valid = value.isEmpty() || NAME.matcher(value).matches();
        return valid ? Optional.empty() : Optional.of("'" + value + "' is not a label value: give up to 63 letters, "
                + "digits, '-', '_' or '.' that start and end with a letter or digit, or \"\"");
    }
}
