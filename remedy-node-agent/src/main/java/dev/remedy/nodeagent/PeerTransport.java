package dev.remedy.nodeagent;

import dev.remedy.core.rules.PeerAnswer;
import java.time.Instant;

/** How a node agent asks a peer about itself ({@link HttpsPeerClient}). */
public interface PeerTransport {

    /**
     * Asks {@code peer} whether {@code self} is healthy, from the peer's view of the API server. Blocks at most the
     * settings' {@code peerDialTimeout} plus {@code peerRequestTimeout}.
     *
     * @param peer     the peer
     * @param self     the asking node
     * @param bootTime when the asking node last booted
     * @return the peer's answer; {@link PeerAnswer#NO_ANSWER} if it cannot be reached, does not answer in time or
     *         answers something else; never throws
     */
    PeerAnswer ask(PeerNode peer, String self, Instant bootTime);
}
