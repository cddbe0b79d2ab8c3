package dev.remedy.fence.ipmi.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.remedy.fence.ipmi.internal.protocol.Received.Datagram;
import dev.remedy.fence.ipmi.internal.protocol.Received.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Every decoder of bytes from the network, fed arbitrary bytes, every truncation of a valid packet and mutated
 * valid packets (session setup replies, session-less replies, IPMI messages in the clear and under cipher suites 3
 * and 17): each returns a value or throws {@link MalformedPacketException} naming a field and an offset, never
 * another exception. A protected packet that was changed is always refused.
 */
class DecoderPropertiesTest {

    private static final int MAX_DATAGRAM = 160;

    // ---- (a) arbitrary bytes

    @Property(tries = 1000)
    @Label("arbitrary bytes are read or refused as malformed, by every receiver")
    void arbitraryBytes(@ForAll("datagramLike") byte[] bytes, @ForAll("keys") Keys keys) {
        readOrRefused(bytes, bytes.length, keys);
    }

    @Property(tries = 500)
    @Label("the payload decoders read arbitrary payloads or refuse them as malformed")
    void arbitraryPayloads(@ForAll @Size(max = 80) byte[] payload, @ForAll @IntRange(max = 40) int codeLength) {
        refusedOnlyAsMalformed(() -> OpenSession.Response.decode(payload), payload.length);
        refusedOnlyAsMalformed(() -> Rakp.Message2.decode(payload, codeLength), payload.length);
        refusedOnlyAsMalformed(() -> Rakp.Message4.decode(payload, codeLength), payload.length);
        refusedOnlyAsMalformed(() -> ChannelAuthCapabilities.decode(payload), payload.length + 1);
        refusedOnlyAsMalformed(() -> ChassisStatus.decode(payload), payload.length + 1);
        for (int offset = 0; offset <= payload.length; offset++) {
            int at = offset;
            refusedOnlyAsMalformed(() -> IpmiMessage.decode(payload, at, payload.length - at), payload.length);
        }
    }

    @Property(tries = 1000)
    @Label("the integrity trailer and the encrypted payload of arbitrary bytes are checked or refused as malformed")
    void arbitraryTrailersAndCiphertexts(@ForAll @Size(max = 100) byte[] bytes, @ForAll("establishedKeys") Keys keys) {
        refusedOnlyAsMalformed(() -> keys.integrity().open(bytes, Rmcp.LENGTH), bytes.length + Rmcp.LENGTH);
        refusedOnlyAsMalformed(() -> keys.confidentiality(new byte[16]).decrypt(bytes, 16), bytes.length + 16);
    }

    @Property(tries = 1000)
    @Label("an encrypted packet that is not authenticated has its arbitrary ciphertext decrypted or refused")
    void arbitraryCiphertextInAPacket(@ForAll @Size(max = 100) byte[] ciphertext,
            @ForAll("establishedKeys") Keys keys) {
        byte[] datagram = new byte[Rmcp.LENGTH + SessionHeader.LENGTH + ciphertext.length];
        Rmcp.write(datagram, 0);
        new SessionHeader(PayloadType.IPMI_MESSAGE, true, false, 1, 1, ciphertext.length).write(datagram, Rmcp.LENGTH);
        System.arraycopy(ciphertext, 0, datagram, Rmcp.LENGTH + SessionHeader.LENGTH, ciphertext.length);
        refusedOnlyAsMalformed(() -> LanplusPacket.decode(datagram, datagram.length, keys.confidentiality(new byte[16]),
                null), datagram.length);
    }

    @Property(tries = 500)
    @Label("a receive length outside the buffer is refused as malformed, and routing never fails")
    void lengthOutsideTheBuffer(@ForAll @Size(max = 40) byte[] buffer, @ForAll @IntRange(min = -2, max = 44) int length,
            @ForAll("keys") Keys keys) {
        refusedOnlyAsMalformed(() -> SessionlessPacket.decode(buffer, length), Math.max(length, 0));
        refusedOnlyAsMalformed(() -> LanplusPacket.decode(buffer, length, null, null), Math.max(length, 0));
        refusedOnlyAsMalformed(() -> Received.read(buffer, length, keys), Math.max(length, 0));
    }

    // ---- (b) truncations

    @Property(tries = 30)
    @Label("every truncation of a valid datagram is refused as malformed, whatever follows it in the buffer")
    void truncations(@ForAll("validDatagrams") Datagram datagram) {
        byte[] bytes = datagram.bytes();
        assertThat(catchThrowable(() -> Received.frame(bytes, bytes.length, datagram.keys())))
                .as("the framing of the valid datagram itself").isNull();
        for (int length = 0; length < bytes.length; length++) {
            int cut = length;
            assertThatThrownBy(() -> Received.frame(bytes, cut, datagram.keys())).as("cut at %d", cut)
                    .isExactlyInstanceOf(MalformedPacketException.class);
            readOrRefused(bytes, cut, datagram.keys());
            readOrRefused(Arrays.copyOf(bytes, cut), cut, datagram.keys());
        }
    }

    // ---- (c) mutations

    @Property(tries = 1000)
    @Label("a mutated valid datagram is read or refused as malformed; a changed protected one is always refused")
    void mutations(@ForAll("validDatagrams") Datagram datagram, @ForAll("mutations") List<Mutation> mutations,
            @ForAll @Size(max = 8) byte[] trailing) {
        byte[] mutated = Mutation.applyAll(datagram.bytes(), mutations);
        byte[] buffer = Arrays.copyOf(mutated, mutated.length + trailing.length);
        System.arraycopy(trailing, 0, buffer, mutated.length, trailing.length);
        MalformedPacketException refusal = readOrRefused(buffer, mutated.length, datagram.keys());
        boolean changed = !Arrays.equals(mutated, datagram.bytes());
        Statistics.label("outcome").collect(refusal == null ? (changed ? "read changed" : "read unchanged")
                : "refused: " + refusal.field());
        if (changed && datagram.keys().protectedPackets()) {
            assertThat(refusal).as("a changed %s under suite %d", datagram.kind(), datagram.keys().suite().id())
                    .isNotNull();
        }
    }

    // ---- checks

    /** Reads a datagram: a value, or a refusal that names a field and an offset inside it. */
    private static MalformedPacketException readOrRefused(byte[] datagram, int length, Keys keys) {
        return refusedOnlyAsMalformed(() -> Received.read(datagram, length, keys), length);
    }

    private static MalformedPacketException refusedOnlyAsMalformed(ThrowingDecoder decoder, int length) {
        Throwable thrown = catchThrowable(decoder::decode);
        if (thrown == null) {
            return null;
        }
        assertThat(thrown).as("what a decoder may throw").isExactlyInstanceOf(MalformedPacketException.class);
        MalformedPacketException refusal = (MalformedPacketException) thrown;
        assertThat(refusal.field()).isNotBlank();
        assertThat(refusal.offset()).as("offset of %s", refusal.getMessage()).isBetween(0, Math.max(length, 0));
        assertThat(refusal.getMessage()).startsWith(refusal.field() + " at offset " + refusal.offset() + ": ");
        return refusal;
    }

    @FunctionalInterface
    private interface ThrowingDecoder {
        Object decode();
    }

    // ---- generators

    @Provide
    Arbitrary<Keys> keys() {
        return Arbitraries.oneOf(setupKeys(), protectedKeys(), Arbitraries.just(Keys.clear()));
    }

    private static Arbitrary<Keys> setupKeys() {
        return Arbitraries.of(CipherSuite.SUITE_3, CipherSuite.SUITE_17).map(Keys::setup);
    }

    @Provide
    Arbitrary<Keys> establishedKeys() {
        return protectedKeys();
    }

    private static Arbitrary<Keys> protectedKeys() {
        return Combinators.combine(Arbitraries.of(CipherSuite.SUITE_3, CipherSuite.SUITE_17), bytes(32),
                bytes(SessionKeys.AES_KEY_LENGTH)).as((suite, k1, aes) -> new Keys(suite, true,
                Arrays.copyOf(k1, suite.authentication().macLength()), aes));
    }

    private static Arbitrary<byte[]> bytes(int length) {
        return Arbitraries.bytes().array(byte[].class).ofSize(length);
    }

    private static Arbitrary<byte[]> bytes(int min, int max) {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(min).ofMaxSize(max);
    }

    /**
     * Arbitrary bytes, and bytes that start like a datagram (an RMCP header, then an IPMI v1.5 or an RMCP+ session
     * header with a known payload type and any length) so that the decoders behind the first checks see them too.
     */
    @Provide
    Arbitrary<byte[]> datagramLike() {
        Arbitrary<byte[]> rmcp = bytes(0, MAX_DATAGRAM).map(rest -> concat(rmcpHeader(), rest));
        Arbitrary<byte[]> sessionless = Combinators.combine(bytes(0, 40), Arbitraries.integers().between(0, 40))
                .as((rest, declared) -> concat(rmcpHeader(), new byte[9], new byte[] {(byte) (int) declared}, rest));
        Arbitrary<byte[]> lanplus = Combinators.combine(Arbitraries.of(PayloadType.values()),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 120), bytes(0, 120))
                .as((type, flags, declared, rest) -> {
                    byte[] header = new byte[SessionHeader.LENGTH];
                    new SessionHeader(type, (flags & 2) != 0, (flags & 1) != 0, 0, 0, declared).write(header, 0);
                    return concat(rmcpHeader(), header, rest);
                });
        return Arbitraries.frequencyOf(
                Tuple.of(2, bytes(0, MAX_DATAGRAM)),
                Tuple.of(1, rmcp),
                Tuple.of(2, sessionless),
                Tuple.of(4, lanplus));
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        return Mutation.some();
    }

    /** Valid datagrams of every kind the client receives, built with the module's encoders. */
    @Provide
    Arbitrary<Datagram> validDatagrams() {
        return Arbitraries.oneOf(sessionlessReplies(), setupReplies(), sessionMessages());
    }

    private static Arbitrary<Datagram> sessionlessReplies() {
        return Combinators.combine(responses(0x07, 0x38), setupKeys())
                .as((message, keys) -> new Datagram("session-less " + message, keys,
                        SessionlessPacket.encode(message)));
    }

    /** Open Session Responses, RAKP 2 and RAKP 4 (successful, or errors of 2 or 8 bytes), unprotected. */
    private static Arbitrary<Datagram> setupReplies() {
        return Combinators.combine(setupKeys(), Arbitraries.of(PayloadType.OPEN_SESSION_RESPONSE, PayloadType.RAKP_2,
                PayloadType.RAKP_4), bytes(8), bytes(32), bytes(32), Arbitraries.of(true, false))
                .as((keys, type, head, random, code, ok) -> setupReply(type, keys, switch (type) {
                    case OPEN_SESSION_RESPONSE -> ok ? openSessionResponse(head, keys.suite()) : error(head);
                    case RAKP_2 -> ok ? concat(ok(head), random,
                            Arrays.copyOf(code, keys.suite().authentication().macLength())) : error(head);
                    default -> ok ? concat(ok(head), Arrays.copyOf(code, keys.suite().authentication().icvLength()))
                            : error(head);
                }));
    }

    private static Datagram setupReply(PayloadType type, Keys keys, byte[] payload) {
        return new Datagram(type + " status " + (payload[1] & 0xFF), keys,
                LanplusPacket.encode(type, 0, 0, payload, null, null));
    }

    /** Tag and status 0 (ok) from the first byte of {@code head}, the rest of it as is. */
    private static byte[] ok(byte[] head) {
        byte[] out = head.clone();
        out[1] = RmcpPlusStatus.OK;
        return out;
    }

    /** An error reply: tag, a non-zero status, and either nothing more or the console session id. */
    private static byte[] error(byte[] head) {
        byte[] out = head.clone();
        out[1] = (byte) (out[1] == 0 ? RmcpPlusStatus.UNAUTHORIZED_NAME : out[1]);
        return (out[2] & 1) == 0 ? Arrays.copyOf(out, 2) : out;
    }

    /** An Open Session Response (IPMI v2.0 §13.18) for {@code suite}; tag, privilege and ids from {@code head}. */
    private static byte[] openSessionResponse(byte[] head, CipherSuite suite) {
        byte[] out = Arrays.copyOf(ok(head), 36);
        out[3] = 0;
        int[] algorithms = {suite.authentication().code(), suite.integrity().code(), suite.confidentiality().code()};
        for (int i = 0; i < 3; i++) {
            out[12 + 8 * i] = (byte) i;
            out[15 + 8 * i] = 8;
            out[16 + 8 * i] = (byte) algorithms[i];
        }
        return out;
    }

    private static Arbitrary<Datagram> sessionMessages() {
        Arbitrary<Keys> keys = Arbitraries.oneOf(protectedKeys(), Arbitraries.just(Keys.clear()));
        return Combinators.combine(responses(0x01, 0x01), keys, bytes(16), Arbitraries.integers(),
                Arbitraries.integers())
                .as((message, session, iv, id, sequence) -> new Datagram("in-session " + message, session,
                        LanplusPacket.encode(PayloadType.IPMI_MESSAGE, id, sequence, message.encode(),
                                session.confidentiality(iv), session.integrity())));
    }

    /**
     * IPMI messages, mostly responses to the command {@code netFn}/{@code command} (a completion code, then data of
     * any length), some of any other kind.
     */
    private static Arbitrary<IpmiMessage> responses(int netFn, int command) {
        Arbitrary<IpmiMessage> answers = Combinators.combine(Arbitraries.integers().between(0, 63),
                Arbitraries.of(0, 0, 0, CompletionCode.BUSY, CompletionCode.INVALID_COMMAND, 0xFF), bytes(0, 12))
                .as((sequence, code, data) -> new IpmiMessage(IpmiMessage.CONSOLE_ADDRESS, netFn, 0,
                        IpmiMessage.BMC_ADDRESS, sequence, 0, command, concat(new byte[] {(byte) (int) code}, data)));
        Arbitrary<List<Integer>> fields = Combinators.combine(List.of(Arbitraries.integers().between(0, 0xFF),
                Arbitraries.integers().between(0, 0x3F), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 0xFF), Arbitraries.integers().between(0, 0x3F),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 0xFF))).as(List::copyOf);
        Arbitrary<IpmiMessage> any = Combinators.combine(fields, bytes(0, 12)).as((f, data) -> new IpmiMessage(
                f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), f.get(5), f.get(6), data));
        return Arbitraries.frequencyOf(Tuple.of(3, answers), Tuple.of(1, any));
    }

    private static byte[] rmcpHeader() {
        byte[] header = new byte[Rmcp.LENGTH];
        Rmcp.write(header, 0);
        return header;
    }

    private static byte[] concat(byte[]... parts) {
        List<byte[]> list = new ArrayList<>(List.of(parts));
        byte[] out = new byte[list.stream().mapToInt(part -> part.length).sum()];
        int at = 0;
        for (byte[] part : list) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }
}
