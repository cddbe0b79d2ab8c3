/** Embedding remedy's Kubernetes side in an operator of your own, on your client and meter registry. */
package dev.remedy.examples.operator;
