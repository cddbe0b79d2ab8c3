package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a launcher's provider class is built without ServiceLoader, or not at all")
class NamedProviderTest {

    private final ClassLoader loader = NamedProviderTest.class.getClassLoader();

    @Test
    @DisplayName("the named provider of the type is the registry's only provider")
    void named() {
        FenceAgentRegistry registry = NamedProvider.load(FakeFenceAgentProvider.class.getName(), "fake", loader)
                .orElseThrow();

        assertThat(registry.providers()).singleElement().isInstanceOf(FakeFenceAgentProvider.class);
        assertThat(registry.provider("fake")).isInstanceOf(FakeFenceAgentProvider.class);
    }

    @Test
    @DisplayName("a class that is gone, is not a provider, or has another type gives nothing (the type is loaded as"
            + " usual)")
    void fallsBack() {
        assertThat(NamedProvider.load("dev.remedy.fence.Gone", "fake", loader)).isEmpty();
        assertThat(NamedProvider.load(String.class.getName(), "fake", loader)).isEmpty();
        assertThat(NamedProvider.load(IpmiFenceAgentProvider.class.getName(), "fake", loader)).isEmpty();
    }
}
