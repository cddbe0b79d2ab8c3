/**
 * The {@code remedy} command: {@code agents} lists the discovered agents and their parameters, {@code fence} runs
 * one action of one agent with a progress line, {@code check} checks fence configurations, policies, scenarios and
 * device profiles before they are applied, {@code simulate} runs policies against a simulated cluster, {@code demo}
 * shows the library at work against simulated machines. Exit codes follow the fence agents (0 ok, 1 failure, 2 STATUS off) and tell the other failures
 * apart (see {@link dev.remedy.cli.ExitCodes}).
 */
package dev.remedy.cli;
