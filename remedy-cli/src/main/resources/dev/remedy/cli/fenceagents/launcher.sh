#!/bin/sh
@MARKER@ (written by 'remedy fence-agents install'; it writes this file again, do not edit)
# @NAME@: remedy's '@TYPE@' agent as a ClusterLabs fence agent for Pacemaker.
# Options as key=value lines on stdin, or as --key=value flags; '@NAME@ -o metadata' lists them.
java=@JAVA@
jar=@JAR@
cds="$jar.@NAME@.jsa"
flags='@FLAGS@ -Xlog:cds=off -Xlog:cds+dynamic=off'
# Options come on stdin when there are no arguments (Pacemaker writes them and closes it): read them here, to
# learn the action, and hand them on.
input=
action=
if [ $# -eq 0 ]; then
  input=$(cat)
  action=$(printf '%s\n' "$input" | sed -n 's/^[[:space:]]*\(action\|option\)[[:space:]]*=[[:space:]]*//p' | tail -n 1)
else
  previous=
  for argument in "$@"; do
    case "$previous" in -o|--action|--option) action=$argument ;; esac
    case "$argument" in --action=*|--option=*) action=${argument#*=} ;; esac
    previous=$argument
  done
fi
# A current class-data sharing archive makes the start fast.
if [ -f "$cds" ] && [ "$cds" -nt "$jar" ] && [ "$cds" -nt "$java" ]; then
  exec "$java" $flags -XX:SharedArchiveFile="$cds" -jar "$jar" @COMMAND@ --type '@TYPE@' -- "$@" <<OPTIONS
$input
OPTIONS
fi
# None, or a stale one: a run that acts on the device (not metadata or validate-all, which load fewer classes)
# writes it as it exits, into a temporary file moved in place so that no run reads half an archive.
case "$action" in
  metadata|meta-data|validate-all|manpage|-h|help)
    exec "$java" $flags -jar "$jar" @COMMAND@ --type '@TYPE@' -- "$@" <<OPTIONS
$input
OPTIONS
    ;;
esac
"$java" $flags -XX:ArchiveClassesAtExit="$cds.$$" -jar "$jar" @COMMAND@ --type '@TYPE@' -- "$@" <<OPTIONS
$input
OPTIONS
status=$?
mv -f "$cds.$$" "$cds" 2>/dev/null || rm -f "$cds.$$"
exit $status
