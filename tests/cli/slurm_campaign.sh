#!/usr/bin/env bash
# slurm.campaign: brings up a one-node Slurm cluster on this machine (munged, slurmctld and slurmd, every file under
# a temporary directory), submits a 4-shard campaign with scripts/slurm-campaign --wait, and checks that the merged
# summary.json is byte-identical to the one the unsharded `thmcheck run` with the same options writes.
# Usage: slurm_campaign.sh THMCHECK SCRATCH   (as root; SCRATCH keeps the two reports and, on failure, the logs)
set -euo pipefail

thm="$1"
scratch="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
campaign="$here/../../scripts/slurm-campaign"
options=(--claims 'demo.*,qin.softmax.*' --cases 12 --seed 5)

fail() {
  echo "slurm.campaign: $*" >&2
  exit 1
}

# Not installed is a failure, not a skip: the machine lacks what scripts/install-deps installs.
for tool in munged slurmctld slurmd sbatch sinfo; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found: run scripts/install-deps (it installs slurm-wlm and munge)"
done
id munge >/dev/null 2>&1 || fail "no user 'munge': run scripts/install-deps (it installs munge)"
[ "$(id -u)" -eq 0 ] || fail "must run as root (slurmd runs the jobs, munged runs as the munge user)"

rm -rf "$scratch"
mkdir -p "$scratch"
# A short path under /tmp: munged's and slurmd's sockets must fit in 108 bytes. Readable by the munge user.
tmp="$(mktemp -d /tmp/thm-slurm.XXXXXX)"
chmod 0755 "$tmp"

# Stops the daemons by the pids in their pid files (never by name), keeps the logs on failure, removes $tmp.
cleanup() {
  local status=$?
  # Jobs still queued or running (a failure half-way): cancelled first, or their slurmstepd would outlive slurmd.
  if [ -s "$tmp/slurmctld.pid" ] && [ -n "$(squeue -h 2>/dev/null)" ]; then
    scancel --user root 2>/dev/null || true
    for _ in $(seq 100); do [ -n "$(squeue -h 2>/dev/null)" ] || break; sleep 0.1; done
  fi
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      pid="$(cat "$pidfile")"
      kill "$pid" 2>/dev/null || true
      # Wait (up to 10 s) for it to exit, so that the next daemon and the removal of $tmp find it gone.
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
  done
  if [ $status -ne 0 ]; then
    mkdir -p "$scratch/logs"
    cp "$tmp"/*.log "$tmp"/munge/*.log "$scratch/logs/" 2>/dev/null || true
    echo "slurm.campaign: daemon logs in $scratch/logs/" >&2
  fi
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The thmcheck binary is copied once: the campaign and the unsharded run use the same build even if it is rebuilt.
cp "$thm" "$tmp/thmcheck"
thm="$tmp/thmcheck"

# --- munge: a 1 KiB key owned by the munge user (mode 0400), munged as that user with its own files -----------------
mkdir -m 0755 "$tmp/munge"  # munged wants its socket directory searchable by all
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 0400 "$tmp/munge/munge.key"
chown -R munge:munge "$tmp/munge"
socket="$tmp/munge/munge.socket"
runuser -u munge -- munged --socket="$socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
                           --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" ||
  fail "munged did not start (log: $tmp/munge/munged.log)"

# --- slurm.conf -----------------------------------------------------------------------------------------------------
node="$(hostname -s)"
# Two free TCP ports (the kernel's choice), so that no other Slurm or service on this machine is disturbed.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("", 0)); b.bind(("", 0))
print(a.getsockname()[1], b.getsockname()[1])')
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=thmtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"

# --- The cluster: slurmctld, slurmd, and wait until the node is idle ---------------------------------------------------
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$node" || fail "slurmd did not start"
for _ in $(seq 300); do
  [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = "idle" ] && break
  sleep 0.1
done
[ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = "idle" ] || fail "the node did not become idle within 30 s ($(sinfo -h -n "$node" -o '%T %E' 2>&1))"

# --- The campaign and the unsharded run ---------------------------------------------------------------------------
"$campaign" --shards 4 --out "$scratch/campaign" "${options[@]}" --thmcheck "$thm" --wait ||
  fail "scripts/slurm-campaign exited $? (logs: $scratch/campaign/logs/)"
"$thm" run "${options[@]}" --report "$scratch/unsharded" >/dev/null || fail "the unsharded thmcheck run exited $?"

cmp "$scratch/campaign/report/summary.json" "$scratch/unsharded/summary.json" ||
  fail "the merged summary.json differs from the unsharded run's"
echo "slurm.campaign: 4 shards merged by Slurm = the unsharded run (summary.json byte-identical)"
