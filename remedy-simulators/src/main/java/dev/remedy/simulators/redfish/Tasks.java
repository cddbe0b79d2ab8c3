package dev.remedy.simulators.redfish;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Asynchronous Reset tasks and their monitors. Thread-safe. */
final class Tasks {

    /** A task that completes at {@code doneAtNanos} on the clock. */
    record Task(String id, String systemId, String resetType, long doneAtNanos) {

        String path() {
            return "/redfish/v1/TaskService/Tasks/" + id;
        }

        String monitorPath() {
            return "/redfish/v1/TaskService/TaskMonitors/" + id;
        }
    }

    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Task> tasks = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    Tasks(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    Task start(String systemId, String resetType, long doneAtNanos) {
        Task task = new Task(Long.toString(nextId.getAndIncrement()), systemId, resetType, doneAtNanos);
        tasks.put(task.id(), task);
        return task;
    }

    Optional<Task> find(String id) {
        return Optional.ofNullable(tasks.get(id));
    }

    boolean done(Task task) {
        return nanoClock.getAsLong() - task.doneAtNanos() >= 0;
    }

    long now() {
        return nanoClock.getAsLong();
    }
}
