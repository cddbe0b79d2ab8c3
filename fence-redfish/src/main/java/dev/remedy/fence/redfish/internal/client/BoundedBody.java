package dev.remedy.fence.redfish.internal.client;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.IntFunction;

/**
 * A response body read into memory up to a limit. A body that declares a longer {@code Content-Length} is not read
 * at all; one that grows past the limit is read no further: the subscription is cancelled, which makes the HTTP
 * client close the connection, and the body fails with the exception {@code tooLarge} makes. Buffers are requested
 * one at a time, so no more than the limit and one buffer are ever held.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final long max;
    private final IntFunction<RedfishException> tooLarge;
    private final int status;
    private final boolean refused;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes;
    private Flow.Subscription subscription;

    private BoundedBody(long max, IntFunction<RedfishException> tooLarge, int status, long declared) {
        this.max = max;
        this.tooLarge = tooLarge;
        this.status = status;
        this.refused = declared > max;
        this.bytes = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 512), Math.min(max, 1 << 16)));
    }

    /**
     * Reads bodies of at most {@code max} bytes.
     *
     * @param tooLarge the failure of a larger body, given the response's HTTP status
     */
    static HttpResponse.BodyHandler<byte[]> handler(long max, IntFunction<RedfishException> tooLarge) {
        return info -> new BoundedBody(max, tooLarge, info.statusCode(), declaredLength(info.headers()
                .firstValue("Content-Length").orElse("")));
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (refused) {
            fail();
        } else {
            subscription.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if (bytes.size() + (long) buffer.remaining() > max) {
                fail();
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
        subscription.request(1);
    }

    private void fail() {
        subscription.cancel();
        body.completeExceptionally(tooLarge.apply(status));
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toByteArray());
    }
}
