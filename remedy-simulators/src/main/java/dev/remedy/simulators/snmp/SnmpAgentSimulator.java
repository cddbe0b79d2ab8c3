package dev.remedy.simulators.snmp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.snmp4j.CommandResponder;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.MessageException;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.mp.CounterSupport;
import org.snmp4j.mp.MPv1;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * An emulated {@link SnmpDevice} on the wire, inside the JVM: an SNMP agent on snmp4j's command responder, on a free
 * UDP port of 127.0.0.1, answering SNMPv1 and v2c (a write community, and optionally a read-only one: a SET with it
 * is refused with noAccess, noSuchName in v1) and SNMPv3 (users of the user-based security model with SHA-1 or SHA-2
 * authentication and AES privacy, and the engine ID discovery a v3 client starts with). GET, GETNEXT, GETBULK and SET
 * go to the device; a request with a wrong community, or one the USM cannot authenticate, gets no answer (or the
 * USM's report), as from a real agent.
 *
 * <p>For tests: every SET the device carried out is kept in order ({@link #sets()}), requests are counted
 * ({@link #requests()}), a GET of an OID may be answered with another value ({@link #answer}), and the agent may stop
 * answering ({@link #silent}). Thread-safe; {@link #close()} stops it.
 */
public final class SnmpAgentSimulator implements AutoCloseable, CommandResponder {

    private static final Map<String, OID> AUTH = Map.of("SHA", AuthSHA.ID, "SHA-224", AuthHMAC128SHA224.ID,
            "SHA-256", AuthHMAC192SHA256.ID, "SHA-384", AuthHMAC256SHA384.ID, "SHA-512", AuthHMAC384SHA512.ID);
    private static final Map<String, OID> PRIV = Map.of("AES", PrivAES128.ID, "AES-128", PrivAES128.ID,
            "AES-192", PrivAES192.ID, "AES-256", PrivAES256.ID);

    private final SnmpDevice device;
    private final Access access;
    private final Snmp snmp;
    private final UdpAddress address;
    private final Map<String, SnmpValue> answers = new ConcurrentHashMap<>();
    private final List<VarBind> sets = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile boolean silent;

    /**
     * Who may ask: a write community (v1, v2c), an optional read-only community, and SNMPv3 users.
     *
     * @param community         the community that may read and write; empty to answer no v1/v2c request
     * @param readOnlyCommunity a community that may only read
     * @param users             the SNMPv3 users
     */
    public record Access(Optional<String> community, Optional<String> readOnlyCommunity, List<User> users) {

        /** Copies the users. */
        public Access {
            Objects.requireNonNull(community, "community");
            Objects.requireNonNull(readOnlyCommunity, "readOnlyCommunity");
            users = List.copyOf(users);
        }

        /** A write community only. */
        public static Access community(String community) {
            return new Access(Optional.of(community), Optional.empty(), List.of());
        }

        /** SNMPv3 users only. */
        public static Access users(User... users) {
            return new Access(Optional.empty(), Optional.empty(), List.of(users));
        }

        /** This access with a read-only community as well. */
        public Access withReadOnly(String readOnly) {
            return new Access(community, Optional.of(readOnly), users);
        }

        /** The access without its communities, which are secrets. */
        @Override
        public String toString() {
            return "Access[community " + (community.isPresent() ? "set" : "none") + ", read-only community "
                    + (readOnlyCommunity.isPresent() ? "set" : "none") + ", users " + users + "]";
        }

        /** This access with SNMPv3 users as well. */
        public Access with(User... more) {
            List<User> all = new ArrayList<>(users);
            all.addAll(List.of(more));
            return new Access(community, readOnlyCommunity, all);
        }
    }

    /**
     * An SNMPv3 user, with net-snmp's names of the protocols.
     *
     * @param name           the security name
     * @param auth           {@code SHA}, {@code SHA-224}, {@code SHA-256}, {@code SHA-384} or {@code SHA-512}; empty
     *                       for noAuthNoPriv
     * @param authPassphrase the authentication passphrase (8 characters or more)
     * @param priv           {@code AES} (AES-128), {@code AES-128}, {@code AES-192} or {@code AES-256}; empty for
     *                       no privacy
     * @param privPassphrase the privacy passphrase (8 characters or more)
     */
    public record User(String name, Optional<String> auth, Optional<String> authPassphrase, Optional<String> priv,
            Optional<String> privPassphrase) {

        /** Checks the protocol names and that each protocol has its passphrase. */
        public User {
            Objects.requireNonNull(name, "name");
            auth.filter(a -> !AUTH.containsKey(a)).ifPresent(a -> {
                throw new IllegalArgumentException("auth protocol '" + a + "' is not one of " + AUTH.keySet());
            });
            priv.filter(p -> !PRIV.containsKey(p)).ifPresent(p -> {
                throw new IllegalArgumentException("priv protocol '" + p + "' is not one of " + PRIV.keySet());
            });
            if (auth.isPresent() != authPassphrase.isPresent() || priv.isPresent() != privPassphrase.isPresent()
                    || priv.isPresent() && auth.isEmpty()) {
                throw new IllegalArgumentException("user " + name + ": each protocol needs its passphrase, and "
                        + "privacy needs authentication");
            }
        }

        /** An authPriv user. */
        public static User authPriv(String name, String auth, String authPassphrase, String priv,
                String privPassphrase) {
            return new User(name, Optional.of(auth), Optional.of(authPassphrase), Optional.of(priv),
                    Optional.of(privPassphrase));
        }

        /** An authNoPriv user. */
        public static User authNoPriv(String name, String auth, String authPassphrase) {
            return new User(name, Optional.of(auth), Optional.of(authPassphrase), Optional.empty(), Optional.empty());
        }

        private int level() {
            return priv.isPresent() ? SecurityLevel.AUTH_PRIV : auth.isPresent() ? SecurityLevel.AUTH_NOPRIV
                    : SecurityLevel.NOAUTH_NOPRIV;
        }

        @Override
        public String toString() {
            return "User[" + name + ", " + auth.orElse("noAuth") + ", " + priv.orElse("noPriv") + "]";
        }
    }

    private SnmpAgentSimulator(SnmpDevice device, Access access) throws IOException {
        this.device = device;
        this.access = access;
        DefaultUdpTransportMapping transport = new DefaultUdpTransportMapping(new UdpAddress("127.0.0.1/0"));
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv1());
        dispatcher.addMessageProcessingModel(new MPv2c());
        SecurityProtocols protocols = new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.none);
        protocols.addAuthenticationProtocol(new AuthSHA());
        protocols.addAuthenticationProtocol(new AuthHMAC128SHA224());
        protocols.addAuthenticationProtocol(new AuthHMAC192SHA256());
        protocols.addAuthenticationProtocol(new AuthHMAC256SHA384());
        protocols.addAuthenticationProtocol(new AuthHMAC384SHA512());
        protocols.addPrivacyProtocol(new PrivAES128());
        protocols.addPrivacyProtocol(new PrivAES192());
        protocols.addPrivacyProtocol(new PrivAES256());
        OctetString engine = new OctetString(MPv3.createLocalEngineID(new OctetString(device.name())));
        USM usm = new USM(protocols, engine, 1);
        for (User user : access.users()) {
            OctetString name = new OctetString(user.name());
            usm.addUser(name, engine, new UsmUser(name, user.auth().map(AUTH::get).orElse(null),
                    user.authPassphrase().map(OctetString::new).orElse(null), user.priv().map(PRIV::get).orElse(null),
                    user.privPassphrase().map(OctetString::new).orElse(null)));
        }
        dispatcher.addMessageProcessingModel(new MPv3(engine.getValue(), null, protocols,
                SecurityModels.getCollection(new SecurityModel[] {usm}), CounterSupport.getInstance()));
        this.snmp = new Snmp(dispatcher, transport);
        snmp.addCommandResponder(this);
        snmp.listen();
        this.address = transport.getListenAddress();
    }

    /**
     * Starts an agent for {@code device} on a free UDP port of 127.0.0.1.
     *
     * @throws UncheckedIOException if no socket can be opened
     */
    public static SnmpAgentSimulator start(SnmpDevice device, Access access) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(access, "access");
        try {
            return new SnmpAgentSimulator(device, access);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the SNMP agent of " + device.name(), e);
        }
    }

    /** The device behind the agent. */
    public SnmpDevice device() {
        return device;
    }

    /** The address the agent listens on, {@code 127.0.0.1}. */
    public String host() {
        return address.getInetAddress().getHostAddress();
    }

    /** The UDP port the agent listens on. */
    public int port() {
        return address.getPort();
    }

    /** Every SET binding the device carried out, in order (a refused SET is not here). */
    public List<VarBind> sets() {
        return Collections.unmodifiableList(new ArrayList<>(sets));
    }

    /** How many requests (GET, GETNEXT, GETBULK, SET) the agent accepted and answered or refused. */
    public int requests() {
        return requests.get();
    }

    /** Forgets the SETs and the request count. */
    public void clearHistory() {
        sets.clear();
        requests.set(0);
    }

    /** Answers a GET (and GETNEXT landing on it) of {@code oid} with {@code value} instead of the device's. */
    public SnmpAgentSimulator answer(String oid, SnmpValue value) {
        answers.put(Oid.parse(oid).toString(), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** Answers {@code oid} from the device again. */
    public SnmpAgentSimulator forget(String oid) {
        answers.remove(Oid.parse(oid).toString());
        return this;
    }

    /** Whether the agent ignores every request, as a device that is gone. */
    public SnmpAgentSimulator silent(boolean ignore) {
        this.silent = ignore;
        return this;
    }

    @Override
    public <A extends org.snmp4j.smi.Address> void processPdu(CommandResponderEvent<A> event) {
        if (silent || event.getPDU() == null) {
            return;
        }
        Optional<Boolean> mayWrite = authorised(event);
        if (mayWrite.isEmpty()) {
            event.setProcessed(true);
            return;
        }
        requests.incrementAndGet();
        PDU request = event.getPDU();
        boolean v1 = event.getMessageProcessingModel() == org.snmp4j.mp.MessageProcessingModel.MPv1;
        PDU response = (PDU) request.clone();
        response.setType(PDU.RESPONSE);
        response.setErrorStatus(PDU.noError);
        response.setErrorIndex(0);
        switch (request.getType()) {
            case PDU.GET -> get(response, v1, false);
            case PDU.GETNEXT -> get(response, v1, true);
            case PDU.GETBULK -> bulk(request, response);
            case PDU.SET -> set(response, v1, mayWrite.get());
            default -> {
                event.setProcessed(true);
                return;
            }
        }
        try {
            event.getMessageDispatcher().returnResponsePdu(event.getMessageProcessingModel(), event.getSecurityModel(),
                    event.getSecurityName(), event.getSecurityLevel(), response, event.getMaxSizeResponsePDU(),
                    event.getStateReference(), new StatusInformation());
        } catch (MessageException e) {
            // the client went away; a real agent drops the answer too
        }
        event.setProcessed(true);
    }

    /** Whether the request may write; empty if it is not authorised at all (no answer). */
    private Optional<Boolean> authorised(CommandResponderEvent<?> event) {
        byte[] name = event.getSecurityName();
        if (event.getSecurityModel() == USM.SECURITY_MODEL_USM) {
            String user = new String(name, StandardCharsets.UTF_8);
            return access.users().stream().filter(u -> u.name().equals(user))
                    .filter(u -> event.getSecurityLevel() >= u.level()).findFirst().map(u -> true);
        }
        if (access.community().filter(c -> same(c, name)).isPresent()) {
            return Optional.of(true);
        }
        return access.readOnlyCommunity().filter(c -> same(c, name)).map(c -> false);
    }

    private static boolean same(String community, byte[] given) {
        return MessageDigest.isEqual(community.getBytes(StandardCharsets.UTF_8), given);
    }

    private void get(PDU response, boolean v1, boolean next) {
        for (int i = 0; i < response.size(); i++) {
            VariableBinding binding = response.get(i);
            Optional<VarBind> found = next ? next(toOid(binding.getOid())) : read(toOid(binding.getOid()));
            if (found.isPresent()) {
                response.set(i, binding(found.get()));
            } else if (v1) {
                response.setErrorStatus(PDU.noSuchName);
                response.setErrorIndex(i + 1);
                return;
            } else {
                binding.setVariable(next ? Null.endOfMibView : Null.noSuchObject);
            }
        }
    }

    private void bulk(PDU request, PDU response) {
        int nonRepeaters = Math.max(0, Math.min(request.getNonRepeaters(), request.size()));
        int repetitions = Math.max(0, Math.min(request.getMaxRepetitions(), 100));
        Integer32 id = response.getRequestID();
        response.clear(); // which forgets the request ID as well
        response.setRequestID(id);
        for (int i = 0; i < nonRepeaters; i++) {
            OID oid = request.get(i).getOid();
            response.add(next(toOid(oid)).map(SnmpAgentSimulator::binding)
                    .orElse(new VariableBinding(oid, Null.endOfMibView)));
        }
        List<OID> cursors = new ArrayList<>();
        for (int i = nonRepeaters; i < request.size(); i++) {
            cursors.add(request.get(i).getOid());
        }
        for (int r = 0; r < repetitions && !cursors.isEmpty(); r++) {
            boolean any = false;
            for (int c = 0; c < cursors.size(); c++) {
                OID at = cursors.get(c);
                Optional<VarBind> found = next(toOid(at));
                if (found.isPresent()) {
                    VariableBinding binding = binding(found.get());
                    response.add(binding);
                    cursors.set(c, binding.getOid());
                    any = true;
                } else {
                    response.add(new VariableBinding(at, Null.endOfMibView));
                }
            }
            if (!any) {
                return;
            }
        }
    }

    private void set(PDU response, boolean v1, boolean mayWrite) {
        if (!mayWrite) {
            response.setErrorStatus(v1 ? PDU.noSuchName : PDU.noAccess);
            response.setErrorIndex(1);
            return;
        }
        List<VarBind> bindings = new ArrayList<>();
        for (int i = 0; i < response.size(); i++) {
            VariableBinding binding = response.get(i);
            Optional<SnmpValue> value = value(binding.getVariable());
            if (value.isEmpty()) {
                response.setErrorStatus(v1 ? PDU.badValue : PDU.wrongType);
                response.setErrorIndex(i + 1);
                return;
            }
            bindings.add(new VarBind(toOid(binding.getOid()), value.get()));
        }
        try {
            sets.addAll(device.set(bindings));
        } catch (SnmpSetException e) {
            int status = e.error().errorStatus();
            response.setErrorStatus(v1 ? (status == PDU.notWritable ? PDU.noSuchName : PDU.badValue) : status);
            response.setErrorIndex(1);
        }
    }

    private Optional<VarBind> read(Oid oid) {
        SnmpValue answer = answers.get(oid.toString());
        return answer != null ? Optional.of(new VarBind(oid, answer)) : device.get(oid);
    }

    private Optional<VarBind> next(Oid oid) {
        return device.next(oid).map(found -> read(found.oid()).orElse(found));
    }

    private static Oid toOid(OID oid) {
        return Oid.parse(oid.toDottedString());
    }

    private static VariableBinding binding(VarBind bind) {
        OID oid = new OID(bind.oid().toString().replaceFirst("^\\.", ""));
        Variable variable = switch (bind.value().type()) {
            case INTEGER -> new Integer32(bind.value().intValue());
            case STRING -> new OctetString(bind.value().text());
            case OBJECT_ID -> new OID(bind.value().text().replaceFirst("^\\.", ""));
        };
        return new VariableBinding(oid, variable);
    }

    private static Optional<SnmpValue> value(Variable variable) {
        if (variable instanceof Integer32 number) {
            return Optional.of(SnmpValue.integer(number.getValue()));
        }
        if (variable instanceof OctetString text) {
            return Optional.of(SnmpValue.string(new String(text.getValue(), StandardCharsets.UTF_8)));
        }
        if (variable instanceof OID oid) {
            return Optional.of(SnmpValue.objectId(Oid.parse(oid.toDottedString())));
        }
        return Optional.empty();
    }

    /** Stops answering and closes the socket. */
    @Override
    public void close() {
        try {
            snmp.close();
        } catch (IOException e) {
            // closed either way
        }
    }

    @Override
    public String toString() {
        return "SnmpAgentSimulator[" + device.name() + " at udp:" + host() + "/" + port() + "]";
    }
}
