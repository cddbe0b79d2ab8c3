package dev.remedy.fence.snmp.internal.session;

import dev.remedy.spi.FenceContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.snmp4j.CommunityTarget;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.event.ResponseListener;
import org.snmp4j.mp.CounterSupport;
import org.snmp4j.mp.MPv1;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.GenericAddress;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * One conversation with one SNMP agent, for one action: a UDP socket on an ephemeral port, snmp4j's listener thread,
 * and for v3 a USM of its own holding the one user (its keys localised to the agent's engine ID, which snmp4j
 * discovers on the first request), with security protocols added explicitly: SHA-1, the SHA-2 HMACs and AES. Each
 * request waits at most {@code requestTimeout} and is sent at most {@code 1 + retries} times, never past the action's
 * deadline; a SET is sent again only with the same value, so a repeat does what the first did. Not thread-safe;
 * {@link #close()} ends the thread and the socket.
 */
public final class SnmpSession implements AutoCloseable {

    /** Most rows a walk reads: a PDU has a few hundred outlets, a large switch some thousand interfaces. */
    public static final int MAX_ROWS = 10_000;
    /** How long past a request's own timeout the session waits for snmp4j to report it. */
    private static final Duration REPORT_GRACE = Duration.ofMillis(200);
    private static final int BULK = 25;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** RFC 3416's names of the error-status values, by value. */
    private static final List<String> ERRORS = List.of("noError", "tooBig", "noSuchName", "badValue", "readOnly",
            "genErr", "noAccess", "wrongType", "wrongLength", "wrongEncoding", "wrongValue", "noCreation",
            "inconsistentValue", "resourceUnavailable", "commitFailed", "undoFailed", "authorizationError",
            "notWritable", "inconsistentName");

    private final Endpoint endpoint;
    private final Snmp snmp;
    private final Target<UdpAddress> target;
    private final Duration requestTimeout;
    private final int retries;
    private final FenceContext context;
    private int requests;

    private SnmpSession(Endpoint endpoint, Snmp snmp, Target<UdpAddress> target, Duration requestTimeout, int retries,
            FenceContext context) {
        this.endpoint = endpoint;
        this.snmp = snmp;
        this.target = target;
        this.requestTimeout = requestTimeout;
        this.retries = retries;
        this.context = context;
    }

    /**
     * Opens a session: binds a UDP socket and starts listening. Sends nothing yet.
     *
     * @throws SnmpException if the host is not an address or name that resolves, or no socket can be opened
     */
    public static SnmpSession open(Endpoint endpoint, Duration requestTimeout, int retries, FenceContext context)
            throws SnmpException {
        UdpAddress address;
        try {
            address = (UdpAddress) GenericAddress.parse("udp:" + java.net.InetAddress.getByName(endpoint.host())
                    .getHostAddress() + "/" + endpoint.port());
        } catch (IOException | ClassCastException e) {
            throw new SnmpException(SnmpException.Kind.LOCAL, "cannot resolve " + endpoint.describe() + ": "
                    + e.getMessage() + "; check ip");
        }
        if (address == null) {
            throw new SnmpException(SnmpException.Kind.LOCAL, "'" + endpoint.host() + "' is not a UDP address; "
                    + "check ip");
        }
        DefaultUdpTransportMapping transport = null;
        try {
            transport = new DefaultUdpTransportMapping();
            MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
            Snmp snmp = new Snmp(dispatcher, transport);
            Target<UdpAddress> target;
            if (endpoint.credentials() instanceof Credentials.User user) {
                target = v3(snmp, dispatcher, user, address);
            } else {
                dispatcher.addMessageProcessingModel(endpoint.version() == SnmpVersion.V1 ? new MPv1() : new MPv2c());
                Credentials.Community community = (Credentials.Community) endpoint.credentials();
                CommunityTarget<UdpAddress> communityTarget = new CommunityTarget<>(address,
                        new OctetString(community.community().reveal()));
                communityTarget.setVersion(endpoint.version().wire());
                target = communityTarget;
            }
            target.setRetries(0);
            snmp.listen();
            return new SnmpSession(endpoint, snmp, target, requestTimeout, retries, context);
        } catch (IOException e) {
            if (transport != null) {
                try {
                    transport.close();
                } catch (IOException ignored) {
                    // the socket was never usable
                }
            }
            throw new SnmpException(SnmpException.Kind.LOCAL, "cannot open a UDP socket for " + endpoint.describe()
                    + ": " + e.getMessage(), e);
        }
    }

    private static Target<UdpAddress> v3(Snmp snmp, MessageDispatcherImpl dispatcher, Credentials.User user,
            UdpAddress address) {
        SecurityProtocols protocols = new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.none);
        for (AuthProtocol auth : AuthProtocol.values()) {
            protocols.addAuthenticationProtocol(auth.create());
        }
        for (PrivProtocol priv : PrivProtocol.values()) {
            protocols.addPrivacyProtocol(priv.create());
        }
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        OctetString localEngine = new OctetString(MPv3.createLocalEngineID(new OctetString(random)));
        USM usm = new USM(protocols, localEngine, 0);
        OctetString name = new OctetString(user.name());
        usm.addUser(name, new UsmUser(name, user.auth().map(AuthProtocol::id).orElse(null),
                user.authPassphrase().map(s -> new OctetString(s.reveal())).orElse(null),
                user.priv().map(PrivProtocol::id).orElse(null),
                user.privPassphrase().map(s -> new OctetString(s.reveal())).orElse(null)));
        dispatcher.addMessageProcessingModel(new MPv3(localEngine.getValue(), null, protocols,
                SecurityModels.getCollection(new SecurityModel[] {usm}), CounterSupport.getInstance()));
        UserTarget<UdpAddress> target = new UserTarget<>();
        target.setAddress(address);
        target.setVersion(SnmpConstants.version3);
        target.setSecurityModel(USM.SECURITY_MODEL_USM);
        target.setSecurityName(name);
        target.setSecurityLevel(user.level().wire());
        return target;
    }

    /** The agent, for messages. */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** How many requests were sent (each attempt counts). */
    public int requests() {
        return requests;
    }

    /**
     * GETs one OID.
     *
     * @return its value; {@link SnmpValue.Missing} if the device does not have it
     * @throws SnmpException        if no usable answer came
     * @throws InterruptedException if the thread is interrupted
     */
    public SnmpValue get(String oid) throws SnmpException, InterruptedException {
        PDU response;
        try {
            response = exchange(() -> pdu(PDU.GET, oid), "GET " + oid);
        } catch (SnmpException e) {
            if (e.kind() == SnmpException.Kind.NO_SUCH_OBJECT) {
                return new SnmpValue.Missing("noSuchName");
            }
            throw e;
        }
        return value(response.get(0).getVariable());
    }

    /**
     * SETs one OID to an integer.
     *
     * @return the value the device answered with
     * @throws SnmpException        if the device refused or did not answer
     * @throws InterruptedException if the thread is interrupted
     */
    public SnmpValue set(String oid, int value) throws SnmpException, InterruptedException {
        PDU response = exchange(() -> {
            PDU pdu = pdu(PDU.SET, oid);
            pdu.get(0).setVariable(new Integer32(value));
            return pdu;
        }, "SET " + oid + " = " + value);
        return value(response.get(0).getVariable());
    }

    /**
     * Reads every row under {@code column} (GETBULK in v2c and v3, GETNEXT in v1), at most {@link #MAX_ROWS}.
     *
     * @return each row's index (the OID past the column) and value, in the device's order
     * @throws SnmpException        if no usable answer came, or the column has more rows than the limit
     * @throws InterruptedException if the thread is interrupted
     */
    public Map<String, SnmpValue> walk(String column) throws SnmpException, InterruptedException {
        OID root = new OID(column);
        Map<String, SnmpValue> rows = new LinkedHashMap<>();
        OID next = root;
        while (true) {
            OID from = next;
            PDU response;
            try {
                response = exchange(() -> {
                    PDU pdu = pdu(endpoint.version() == SnmpVersion.V1 ? PDU.GETNEXT : PDU.GETBULK,
                            from.toDottedString());
                    if (endpoint.version() != SnmpVersion.V1) {
                        pdu.setMaxRepetitions(BULK);
                        pdu.setNonRepeaters(0);
                    }
                    return pdu;
                }, "walk " + column);
            } catch (SnmpException e) {
                if (e.kind() == SnmpException.Kind.NO_SUCH_OBJECT) {
                    return rows; // SNMPv1's end of the MIB
                }
                throw e;
            }
            if (response.size() == 0) {
                return rows;
            }
            for (VariableBinding binding : response.getVariableBindings()) {
                OID oid = binding.getOid();
                if (binding.getVariable().isException() || !oid.startsWith(root) || oid.size() <= root.size()
                        || oid.compareTo(next) <= 0) {
                    return rows;
                }
                rows.put(new OID(oid.getValue(), root.size(), oid.size() - root.size()).toDottedString(),
                        value(binding.getVariable()));
                if (rows.size() > MAX_ROWS) {
                    throw new SnmpException(SnmpException.Kind.REFUSED, endpoint.describe() + " has more than "
                            + MAX_ROWS + " rows under " + column + ": that is not a table of plugs; check the profile");
                }
                next = oid;
            }
        }
    }

    private PDU pdu(int type, String oid) {
        PDU pdu = endpoint.version() == SnmpVersion.V3 ? new ScopedPDU() : new PDU();
        pdu.setType(type);
        pdu.add(new VariableBinding(new OID(oid)));
        return pdu;
    }

    private PDU exchange(Supplier<PDU> request, String what) throws SnmpException, InterruptedException {
        int attempts = 0;
        long waited = 0;
        while (attempts <= retries) {
            context.checkInterrupted();
            Duration left = context.remaining();
            if (left.isZero()) {
                throw new SnmpException(SnmpException.Kind.DEADLINE, "the action's deadline passed before "
                        + endpoint.describe() + " answered " + what + (attempts > 0 ? " (" + attempts
                        + " requests sent)" : ""));
            }
            long timeout = Math.max(1, Math.min(requestTimeout.toMillis(), left.toMillis()));
            target.setTimeout(timeout);
            PDU pdu = request.get();
            CompletableFuture<ResponseEvent<?>> reply = new CompletableFuture<>();
            ResponseListener listener = new ResponseListener() {
                @Override
                public <A extends org.snmp4j.smi.Address> void onResponse(ResponseEvent<A> event) {
                    ((Snmp) event.getSource()).cancel(event.getRequest(), this);
                    reply.complete(event);
                }
            };
            attempts++;
            requests++;
            try {
                snmp.send(pdu, target, null, listener);
            } catch (IOException e) {
                throw new SnmpException(SnmpException.Kind.LOCAL, "cannot send " + what + " to " + endpoint.describe()
                        + ": " + e.getMessage(), e);
            }
            ResponseEvent<?> event;
            try {
                event = reply.get(timeout + REPORT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                snmp.cancel(pdu, listener);
                throw e;
            } catch (TimeoutException e) {
                snmp.cancel(pdu, listener);
                waited += timeout;
                continue;
            } catch (ExecutionException e) {
                throw new SnmpException(SnmpException.Kind.LOCAL, what + " to " + endpoint.describe() + " failed: "
                        + e.getCause(), e.getCause());
            }
            if (event.getError() != null) {
                throw new SnmpException(SnmpException.Kind.LOCAL, what + " to " + endpoint.describe() + " failed: "
                        + event.getError().getMessage(), event.getError());
            }
            PDU response = event.getResponse();
            if (response == null) {
                waited += timeout;
                continue;
            }
            if (response.getType() == PDU.REPORT) {
                throw report(response, what);
            }
            if (response.getErrorStatus() != PDU.noError) {
                throw error(response, what);
            }
            if (response.size() == 0 && pdu.getType() != PDU.GETBULK) {
                throw new SnmpException(SnmpException.Kind.LOCAL, endpoint.describe() + " answered " + what
                        + " with no value");
            }
            return response;
        }
        throw new SnmpException(SnmpException.Kind.NO_ANSWER, "no answer from " + endpoint.describe() + " to " + what
                + " after " + attempts + " requests (" + waited + " ms): check ip, ipport and snmp_version, and "
                + (endpoint.version() == SnmpVersion.V3 ? "username, snmp_sec_level and the passphrases"
                : "the community") + " (an agent does not answer a request it cannot authenticate)");
    }

    private SnmpException report(PDU response, String what) {
        OID oid = response.size() > 0 ? response.get(0).getOid() : new OID();
        String why;
        if (oid.startsWith(SnmpConstants.usmStatsWrongDigests.trim())) {
            why = "a wrong authentication passphrase or protocol (usmStatsWrongDigests): check password and "
                    + "snmp_auth_prot";
        } else if (oid.startsWith(SnmpConstants.usmStatsUnknownUserNames.trim())) {
            why = "an unknown user (usmStatsUnknownUserNames): check username";
        } else if (oid.startsWith(SnmpConstants.usmStatsUnsupportedSecLevels.trim())) {
            why = "a security level the user does not have (usmStatsUnsupportedSecLevels): check snmp_sec_level";
        } else if (oid.startsWith(SnmpConstants.usmStatsDecryptionErrors.trim())) {
            why = "a message it could not decrypt (usmStatsDecryptionErrors): check snmp_priv_passwd and "
                    + "snmp_priv_prot";
        } else if (oid.startsWith(SnmpConstants.usmStatsNotInTimeWindows.trim())) {
            why = "a message outside its time window (usmStatsNotInTimeWindows) twice: retry, or check the device's "
                    + "engine time";
        } else {
            why = "report " + oid.toDottedString();
        }
        return new SnmpException(SnmpException.Kind.AUTHENTICATION, endpoint.describe() + " refused " + what + ": "
                + why);
    }

    private SnmpException error(PDU response, String what) {
        int status = response.getErrorStatus();
        String text = status >= 0 && status < ERRORS.size() ? ERRORS.get(status) : "error-status " + status;
        if (status == PDU.noSuchName) {
            return new SnmpException(SnmpException.Kind.NO_SUCH_OBJECT, endpoint.describe() + " has no object for "
                    + what + " (noSuchName)");
        }
        String hint = switch (status) {
            case PDU.noAccess, PDU.notWritable, PDU.authorizationError, PDU.readOnly ->
                    ": the community or user may only read; give one the device lets write";
            case PDU.wrongValue, PDU.badValue, PDU.wrongType, PDU.inconsistentValue, PDU.noCreation ->
                    ": the profile's value or OID does not fit this device; check the profile";
            default -> "";
        };
        return new SnmpException(SnmpException.Kind.REFUSED, endpoint.describe() + " refused " + what + " (" + text
                + ")" + hint);
    }

    private static SnmpValue value(Variable variable) {
        if (variable.isException()) {
            return new SnmpValue.Missing(variable.getSyntaxString());
        }
        if (variable instanceof Integer32 || variable instanceof org.snmp4j.smi.UnsignedInteger32) {
            return new SnmpValue.Number(variable.toLong());
        }
        if (variable instanceof OctetString text) {
            return new SnmpValue.Text(text.isPrintable() ? new String(text.getValue(), StandardCharsets.UTF_8)
                    : text.toHexString());
        }
        return new SnmpValue.Other(variable.getSyntaxString(), variable.toString());
    }

    /** Ends the listener thread and closes the socket. */
    @Override
    public void close() {
        try {
            snmp.close();
        } catch (IOException e) {
            // the socket is closed either way; nothing was lost
        }
    }
}
