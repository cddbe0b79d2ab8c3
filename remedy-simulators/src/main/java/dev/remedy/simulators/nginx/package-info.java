/**
 * Debian's nginx as a real HTTP and TLS peer for integration tests: {@link dev.remedy.simulators.nginx.NginxProcess}
 * runs it in the foreground on free loopback ports with a configuration the test writes, and stops it by its pid.
 */
package dev.remedy.simulators.nginx;
