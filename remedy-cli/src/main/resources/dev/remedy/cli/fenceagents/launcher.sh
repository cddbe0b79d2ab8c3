#!/bin/bash
@MARKER@ (written by 'remedy fence-agents install'; it writes this file again, do not edit)
# @NAME@: remedy's '@TYPE@' agent as a ClusterLabs fence agent for Pacemaker.
# Options as key=value lines on stdin, or as --key=value flags; '@NAME@ -o metadata' lists them.
java=@JAVA@
jar=@JAR@
cds="$jar.@NAME@.jsa"
flags='@FLAGS@ -Xlog:cds=off -Xlog:cds+dynamic=off'
agent=(@COMMAND@ --type '@TYPE@' --provider '@PROVIDER@' --)
# Installed with --resident: calls go to remedy's agent server for this jar when one runs ('$jar.agent-server'
# says where), and a call that finds none starts one for the calls after it.
resident=@RESIDENT@
server="$jar.agent-server"
# Options come on stdin when there are no arguments (Pacemaker writes them and closes it): read them here, to
# learn the action, and hand them on.
input=
action=
framable=yes
if [ $# -eq 0 ]; then
  input=$(cat)
  action=$(printf '%s\n' "$input" | sed -n 's/^[[:space:]]*\(action\|option\)[[:space:]]*=[[:space:]]*//p' | tail -n 1)
else
  previous=
  for argument in "$@"; do
    case "$previous" in -o|--action|--option) action=$argument ;; esac
    case "$argument" in --action=*|--option=*) action=${argument#*=} ;; *$'\n'*) framable=no ;; esac
    previous=$argument
  done
fi
case "$action" in
  metadata|meta-data|validate-all|manpage|-h|help) device_action=no ;;
  *) device_action=yes ;;
esac

# Through the server: only one this user owns, started after the jar, that says the id of the server file first;
# the options are sent only then. Once they are sent, the server's answer is the outcome: no second try here.
if [ "$resident" = yes ] && [ "$framable" = yes ] && [ -f "$server" ] && [ -O "$server" ] \
    && [ ! "$jar" -nt "$server" ] && read -r port id token pid < "$server" && [[ "$port" =~ ^[0-9]+$ ]] \
    && { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
  if IFS= read -r -t 2 hello <&3 && [ "$hello" = "hello $id" ]; then
    {
      printf 'token %s\ntype %s\n' "$token" '@TYPE@'
      for argument in "$@"; do printf 'arg %s\n' "$argument"; done
      if [ $# -eq 0 ]; then
        while IFS= read -r line; do printf 'in %s\n' "$line"; done <<<"$input"
      fi
      printf 'end\n'
    } >&3
    status=
    while IFS= read -r -t 600 line <&3; do
      case "$line" in
        "out "*) printf '%s\n' "${line#out }" ;;
        "out-"*) printf '%s' "${line#out-}" ;;
        "err "*) printf '%s\n' "${line#err }" >&2 ;;
        "err-"*) printf '%s' "${line#err-}" >&2 ;;
        "exit "*) status=${line#exit }; break ;;
        *) break ;;
      esac
    done
    exec 3<&-
    if [[ "$status" =~ ^[0-9]+$ ]]; then
      exit "$status"
    fi
    echo "@NAME@: Failed: remedy's agent server (pid $pid) stopped answering during the action; its outcome is unknown" >&2
    exit 1
  fi
  exec 3<&-
fi
if [ "$resident" = yes ] && [ "$device_action" = yes ] && [ -w "${jar%/*}" ]; then
  # In the background, in a session of its own (Pacemaker's timeout kills this call, not the server), and with
  # no descriptor of this call (Pacemaker reads this call's output until every writer has closed it).
  setsid "$java" @SERVER_FLAGS@ -jar "$jar" @SERVER_COMMAND@ --jar "$jar" --idle @IDLE@ </dev/null >/dev/null 2>&1 &
fi

# In a JVM of its own. A current class-data sharing archive makes the start fast.
if [ -f "$cds" ] && [ "$cds" -nt "$jar" ] && [ "$cds" -nt "$java" ]; then
  exec "$java" $flags -XX:SharedArchiveFile="$cds" -jar "$jar" "${agent[@]}" "$@" <<OPTIONS
$input
OPTIONS
fi
# None, or a stale one: a run that acts on the device (not metadata or validate-all, which load fewer classes)
# writes it as it exits, into a temporary file moved in place so that no run reads half an archive.
if [ "$device_action" = no ]; then
  exec "$java" $flags -jar "$jar" "${agent[@]}" "$@" <<OPTIONS
$input
OPTIONS
fi
"$java" $flags -XX:ArchiveClassesAtExit="$cds.$$" -jar "$jar" "${agent[@]}" "$@" <<OPTIONS
$input
OPTIONS
status=$?
mv -f "$cds.$$" "$cds" 2>/dev/null || rm -f "$cds.$$"
exit $status
