package dev.remedy.fence.kube.testing;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;

/**
 * A daemon thread that runs a fake controller's step every 5 ms until {@link #close()}, for tests whose code under test
 * polls on the system clock (the conformance kit). A step that fails with 409 Conflict (an object changed between the
 * fake's read and its write, which a real API server reports where the mock accepts a stale status write) is retried
 * at the next step, as a controller requeues; any other failure stops the thread and is thrown by {@link #close()}.
 */
public final class Stepper implements AutoCloseable {

    private final String name;
    private final Thread thread;
    private volatile RuntimeException failure;
    private volatile boolean stopping;

    private Stepper(String name, Runnable step) {
        this.name = name;
        this.thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    step.run();
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                        fail(e);
                        return;
                    }
                } catch (RuntimeException e) {
                    fail(e);
                    return;
                }
            }
        }, name);
        thread.setDaemon(true);
    }

    /** Starts a thread named {@code name} that runs {@code step} every 5 ms. */
    public static Stepper start(String name, Runnable step) {
        Stepper stepper = new Stepper(name, step);
        stepper.thread.start();
        return stepper;
    }

    /** Stops the thread (waiting at most 5 s) and fails if a step failed on it. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        thread.interrupt();
        thread.join(Duration.ofSeconds(5).toMillis());
        if (failure != null) {
            throw new IllegalStateException(name + " failed a step", failure);
        }
    }

    private void fail(RuntimeException e) {
        if (!stopping) {
            failure = e;
        }
    }
}
