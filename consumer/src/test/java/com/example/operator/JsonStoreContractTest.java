package com.example.operator;

import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.test.conformance.FenceStateStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The published store contract, run from outside remedy against the JSON store an operator would configure. */
class JsonStoreContractTest extends FenceStateStoreContract {

    @TempDir
    Path dir;

    @Override
    protected FenceStateStore newStore() {
        return new JsonFileStateStore(dir.resolve("state"));
    }
}
