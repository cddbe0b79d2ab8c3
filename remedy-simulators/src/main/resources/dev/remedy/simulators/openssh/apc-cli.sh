#!/bin/sh
# The CLI of an APC switched rack PDU (AOS firmware 5+), as remedy's OpenSshServerProcess serves it: sshd runs this
# script as its ForceCommand, as the logged-in user. The dialogue follows section 1 of the fence-ssh device contract:
# banner, the prompt "apc>", olStatus N|all, olOn N, olOff N, exit|quit. Lines end in "\r\n".
#
# Outlet states live in pdu/outlets next to this script, one line per outlet: "N on" or "N off". The Java side reads
# and writes the same file; both replace it whole (write a temporary file, then rename), so a reader never sees
# half a file.
#
# Three ways in:
#   - an exec request (SSH_ORIGINAL_COMMAND set): run that one command, no banner, no prompt, then exit;
#   - a shell on a terminal: the banner, then a prompt per line. Terminal echo and the "\n" to "\r\n" mapping are
#     turned off; the script echoes each line it reads, then "\r\n", so the dialogue is the same whenever the
#     client types;
#   - a shell without a terminal: the same dialogue without the echo, until "exit" or the end of the input.
#
# POSIX sh only (dash is /bin/sh on Debian).

set -f
state="$(dirname -- "$0")/pdu/outlets"
cr=$(printf '\r')

say() {
  printf '%s\r\n' "$1"
}

banner() {
  printf '\r\n'
  say 'American Power Conversion               Network Management Card AOS      v6.9.6'
  say '(c) Copyright 2020 All Rights Reserved  RPDU 2g v6.9.6'
  say '-------------------------------------------------------------------------------'
  say 'Name      : remedy-sim-pdu                            Date : 11/22/2026'
  say 'Contact   : Unknown                                   Time : 10:00:00'
  say 'Location  : Unknown                                   User : Administrator'
  say 'Up Time   : 0 Days 1 Hour 2 Minutes                   Stat : P+ N+ A+'
  say ''
  say 'Type ? for command listing'
  say 'Use tcpip command for IP address(-i), subnet(-s), and gateway(-g)'
}

# Prints the state (on|off) of outlet $1; fails when there is no such outlet (0, too high, not a number, "03").
state_of() {
  while read -r number on_off; do
    if [ "$number" = "$1" ]; then
      printf '%s\n' "$on_off"
      return 0
    fi
  done < "$state"
  return 1
}

status_line() {
  if [ "$2" = on ]; then
    say " $1: Outlet $1: On"
  else
    say " $1: Outlet $1: Off"
  fi
}

# Sets outlet $1 to $2 (on|off), replacing the state file whole.
set_state() {
  tmp="$state.$$"
  while read -r number on_off; do
    if [ "$number" = "$1" ]; then
      printf '%s %s\n' "$number" "$2"
    else
      printf '%s %s\n' "$number" "$on_off"
    fi
  done < "$state" > "$tmp" && mv -f "$tmp" "$state"
}

# Runs one command line.
run_line() {
  # Word splitting with globbing off (set -f): the words of the line become $1, $2...
  # shellcheck disable=SC2086
  set -- $1
  if [ $# -eq 0 ]; then
    return 0
  fi
  verb=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
  case $verb in
    olstatus)
      if [ $# -ne 2 ]; then
        say 'E102: Parameter Error'
      elif [ "$2" = all ]; then
        say 'E000: Success'
        while read -r number on_off; do
          status_line "$number" "$on_off"
        done < "$state"
      elif on_off=$(state_of "$2"); then
        say 'E000: Success'
        status_line "$2" "$on_off"
      else
        say 'E102: Parameter Error'
      fi
      ;;
    olon | oloff)
      if [ $# -ne 2 ] || ! state_of "$2" > /dev/null; then
        say 'E102: Parameter Error'
      else
        if [ "$verb" = olon ]; then set_state "$2" on; else set_state "$2" off; fi
        say 'E000: Success'
      fi
      ;;
    exit | quit)
      say 'Bye.'
      exit 0
      ;;
    *)
      say 'E101: Command Not Found'
      ;;
  esac
}

if [ -n "${SSH_ORIGINAL_COMMAND:-}" ]; then
  run_line "${SSH_ORIGINAL_COMMAND%"$cr"}"
  exit 0
fi

terminal=no
if [ -t 0 ]; then
  terminal=yes
  stty -echo -onlcr 2> /dev/null || true
fi
banner
printf '\r\napc>'
while IFS= read -r input || [ -n "$input" ]; do
  input=${input%"$cr"}
  if [ "$terminal" = yes ]; then
    printf '%s\r\n' "$input"
  fi
  run_line "$input"
  printf '\r\napc>'
done
exit 0
