package dev.remedy.core.store;

import dev.remedy.test.conformance.FenceStateStoreContract;
import org.junit.jupiter.api.DisplayName;

/** {@link InMemoryStateStore} meets the {@link FenceStateStore} contract. */
@DisplayName("InMemoryStateStore")
class InMemoryStateStoreTest extends FenceStateStoreContract {

    @Override
    protected FenceStateStore newStore() {
        return new InMemoryStateStore();
    }
}
