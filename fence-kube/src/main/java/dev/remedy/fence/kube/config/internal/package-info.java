/**
 * Implementation of {@code dev.remedy.fence.kube.config}: reading the configuration from a namespace's ConfigMaps
 * with remedy's loaders, and the notes about refused changes. Not an API.
 */
package dev.remedy.fence.kube.config.internal;
