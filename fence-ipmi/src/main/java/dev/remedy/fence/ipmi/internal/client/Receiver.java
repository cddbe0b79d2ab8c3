package dev.remedy.fence.ipmi.internal.client;

import java.net.InetSocketAddress;

/** Takes the datagrams an {@link EventLoop} routes to one session. Called on the loop's thread only. */
interface Receiver {

    /**
     * Handles a datagram; {@code datagram} is the loop's buffer and must not be kept past the call.
     *
     * @param length how many bytes of {@code datagram} were received
     */
    void receive(byte[] datagram, int length, InetSocketAddress from);
}
