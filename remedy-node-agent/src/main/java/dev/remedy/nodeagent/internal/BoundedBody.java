package dev.remedy.nodeagent.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read as UTF-8 text up to a limit: a longer body cancels the exchange and fails it, so a peer cannot
 * make an agent hold an answer of any size in memory. Used once, for one response.
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<String> {

    private final int limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int limit) {
        this.limit = limit;
    }

    /** Bodies of at most {@code limit} bytes. */
    public static HttpResponse.BodyHandler<String> handler(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit: must be at least 1 byte, was " + limit);
        }
        return info -> new BoundedBody(limit);
    }

    @Override
    public CompletionStage<String> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer item : items) {
            if (body.isDone()) {
                return;
            }
            if (bytes.size() + item.remaining() > limit) {
                subscription.cancel();
                body.completeExceptionally(new IOException("the answer is longer than " + limit + " bytes"));
                return;
            }
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toString(StandardCharsets.UTF_8));
    }
}
