/** Benchmark mains: each prints what it measured, with the target and, where a peer exists, the peer's figure. */
package dev.remedy.benchmarks;
