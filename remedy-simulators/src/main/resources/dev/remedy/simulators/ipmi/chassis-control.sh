#!/bin/sh
# Chassis control for OpenIPMI ipmi_sim, written into the work directory by remedy's IpmiSimProcess.
#
# lan.conf says:  chassis_control "f() { set -- <state file> $*; . <this script>; }; f"  (sourced: one shell)
# and ipmi_sim runs it through popen (sh -c), appending the operation:
#   <script> <state> get power                 print power:1 (on) or power:0 (off)
#   <script> <state> set power 0|1             Chassis Control power down / power up; a power cycle is
#                                              "set power 0" and, one second later, "set power 1"
#   <script> <state> set shutdown 1            Chassis Control soft shutdown: powers off here
#   <script> <state> set reset 1               Chassis Control hard reset: power and history unchanged
#   <script> <state> get boot / set boot <dev> boot device (none, pxe, default, cdrom, bios)
#   <script> <state> set identify "<s> <f>"    Chassis Identify: accepted, nothing to do
# Files next to the state file: <state>.history gets ON or OFF for every state entered (each change),
# <state>.calls every call, <state>.boot the boot device. Exit status 0 on success; errors go to stdout.
state="$1"
shift
printf '%s\n' "$*" >> "$state.calls"
op="$1"
[ $# -gt 0 ] && shift

# Sets $now to 0 (off) or 1 (on). Builtins only, no $(...): ipmi_sim runs this for every Get Chassis Status,
# and a fork per call would be most of the latency a benchmark measures.
power_now() {
    now=1
    if [ -r "$state" ]; then read -r now < "$state" || now=1; fi
    if [ "$now" != 0 ]; then now=1; fi
}

set_power() {
    power_now
    if [ "$now" != "$1" ]; then
        tmp="$state.tmp.$$"
        printf '%s\n' "$1" > "$tmp" && mv -f "$tmp" "$state" || { echo "cannot write $state"; exit 1; }
        if [ "$1" = 1 ]; then echo ON >> "$state.history"; else echo OFF >> "$state.history"; fi
    fi
}

case "$op" in
    get)
        for parm in "$@"; do
            case "$parm" in
                power) power_now; echo "power:$now" ;;
                boot) echo "boot:$(cat "$state.boot" 2>/dev/null || echo default)" ;;
                *) echo "unknown parameter: $parm"; exit 1 ;;
            esac
        done
        ;;
    set)
        while [ $# -ge 2 ]; do
            case "$1" in
                power)
                    case "$2" in
                        0|1) set_power "$2" ;;
                        *) echo "bad power value: $2"; exit 1 ;;
                    esac
                    ;;
                shutdown) if [ "$2" = 1 ]; then set_power 0; fi ;;
                reset) ;;
                boot) printf '%s\n' "$2" > "$state.boot" ;;
                identify) ;;
                *) echo "unknown parameter: $1"; exit 1 ;;
            esac
            shift 2
        done
        ;;
    check)
        exit 1
        ;;
    *)
        echo "unknown operation: $op"
        exit 1
        ;;
esac
exit 0
