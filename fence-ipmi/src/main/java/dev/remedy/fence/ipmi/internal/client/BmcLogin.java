package dev.remedy.fence.ipmi.internal.client;

import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.Privilege;
import dev.remedy.fence.ipmi.internal.protocol.RakpExchange;
import dev.remedy.fence.ipmi.internal.protocol.SessionKeys;
import dev.remedy.spi.config.Secret;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how to open an RMCP+ session.
 *
 * @param address the BMC's UDP address (resolved)
 * @param user the IPMI user name (ASCII, at most 16 characters; may be empty for anonymous login)
 * @param password the user's password (at most 20 bytes)
 * @param bmcKey the BMC key Kg as hexadecimal digits (at most 40, as {@code hexadecimal_kg}), if the BMC has one
 * @param suites the cipher suites to try, in order: the first the BMC accepts is used
 * @param privilege the privilege level to ask for
 * @param nameOnlyLookup ask the BMC to look the user up by name only (as ipmitool does by default)
 * @param retransmitInterval how long to wait for an answer before the first resend; it doubles per resend
 */
public record BmcLogin(InetSocketAddress address, String user, Secret password, Optional<Secret> bmcKey,
        List<CipherSuite> suites, Privilege privilege, boolean nameOnlyLookup, Duration retransmitInterval) {

    /** The suites tried when none is configured: SHA-256 first, then SHA-1. */
    public static final List<CipherSuite> NEGOTIATED = List.of(CipherSuite.SUITE_17, CipherSuite.SUITE_3);
    /** The default first resend interval. */
    public static final Duration DEFAULT_RETRANSMIT_INTERVAL = Duration.ofMillis(250);

    /** Validates the fields and copies the suite list. */
    public BmcLogin {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(bmcKey, "bmcKey");
        Objects.requireNonNull(privilege, "privilege");
        Objects.requireNonNull(retransmitInterval, "retransmitInterval");
        suites = List.copyOf(suites);
        if (suites.isEmpty()) {
            throw new IllegalArgumentException("suites is empty: give at least one cipher suite, e.g. 17 or 3");
        }
        if (user.length() > RakpExchange.MAX_USER_NAME_LENGTH
                || !StandardCharsets.US_ASCII.newEncoder().canEncode(user)) {
            throw new IllegalArgumentException("user name must be ASCII of at most 16 characters, was '" + user + "'");
        }
        byte[] raw = password.revealBytes();
        int length = raw.length;
        Arrays.fill(raw, (byte) 0);
        if (length > SessionKeys.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("the password is longer than 20 bytes, the IPMI v2.0 limit");
        }
        bmcKey.ifPresent(BmcLogin::checkHexKey);
        if (retransmitInterval.isNegative() || retransmitInterval.isZero()) {
            throw new IllegalArgumentException("retransmitInterval must be positive, was " + retransmitInterval);
        }
    }

    /** A login with the negotiated suites, administrator privilege, name-only lookup and the default resend. */
    public static BmcLogin of(InetSocketAddress address, String user, Secret password) {
        return new BmcLogin(address, user, password, Optional.empty(), NEGOTIATED, Privilege.ADMINISTRATOR, true,
                DEFAULT_RETRANSMIT_INTERVAL);
    }

    private static void checkHexKey(Secret key) {
        if (!isHexKey(key)) {
            throw new IllegalArgumentException("the BMC key must be an even number of hexadecimal digits, at most "
                    + 2 * SessionKeys.MAX_KEY_LENGTH + ", " + key.reveal().length() + " characters were given");
        }
    }

    /** Whether {@code key} is a BMC key as {@code hexadecimal_kg} gives it: an even number of hex digits, at most 40. */
    public static boolean isHexKey(Secret key) {
        String hex = key.reveal();
        return hex.length() <= 2 * SessionKeys.MAX_KEY_LENGTH && hex.length() % 2 == 0
                && hex.chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /** The BMC key as bytes, or {@code null}; the caller clears the result. */
    byte[] bmcKeyBytes() {
        return bmcKey.map(key -> HexFormat.of().parseHex(key.reveal())).orElse(null);
    }

    /** This login with other suites. */
    public BmcLogin withSuites(List<CipherSuite> list) {
        return new BmcLogin(address, user, password, bmcKey, list, privilege, nameOnlyLookup, retransmitInterval);
    }

    /** The address as {@code host:port} for messages. */
    public String bmc() {
        return address.getHostString() + ":" + address.getPort();
    }

    @Override
    public String toString() {
        return "BmcLogin[" + bmc() + ", user=" + user + ", password=" + password + ", suites="
                + suites.stream().map(CipherSuite::id).toList() + ", privilege=" + privilege + "]";
    }
}
