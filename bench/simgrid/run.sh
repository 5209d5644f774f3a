#!/usr/bin/env bash
# The flow-level ring all-reduce side by side with SimGrid 3.32 (C++, CM02 model;
# Debian's libsimgrid-dev), on the same platform: a star of N hosts, 450 GB/s of
# payload per direction, no latency, 1 GiB. Both model the same thing: SimGrid
# without its TCP ACK cross-traffic (by default 5 % of each flow sent back,
# which slows every ring step by 5 %), fabriclab with links fast enough for
# 450 GB/s of payload under Ethernet headers at MTU 4096. `make bench` runs it;
# without SimGrid and g++ it says so and skips.
# Usage: [FABRICLAB=binary] bench/simgrid/run.sh [N ...]   (default 256 1024)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v g++ >/dev/null 2>&1 || [ ! -e /usr/include/simgrid/s4u.hpp ]; then
	echo "skipping the SimGrid side-by-side: it needs g++ and SimGrid 3.32 (apt-get install -y libsimgrid-dev g++)"
	exit 0
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
g++ -O2 -o "$w/sgring" "$here/ring.cpp" -lsimgrid
if [ -n "${FABRICLAB:-}" ]; then
	cp "$FABRICLAB" "$w/fabriclab" # a binary to time instead of this tree's
else
	(cd "$here/../.." && go build -o "$w/fabriclab" ./cmd/fabriclab)
fi
S=1073741824
for N in "${@:-256 1024}"; do
	for n in $N; do
		cat >"$w/p.xml" <<EOT
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="AS0" routing="Full">
<cluster id="c" prefix="gpu-" suffix="" radical="0-$((n-1))" speed="1Gf" bw="450GBps" lat="0us" sharing_policy="SPLITDUPLEX" bb_bw="1000000GBps" bb_lat="0us"/>
</zone></platform>
EOT
		cat >"$w/ring.yaml" <<EOT
name: ring-$n-flow
topology: {kind: star, hosts: $n, fabric: ethernet, link_gbps: 3668.5546875, link_latency: 0us, switch_latency: 0us}
collective: {op: allreduce, algo: ring, bytes: $S, alpha: 0us}
sim: {fidelity: flow}
EOT
		python3 - "$w" "$n" "$S" <<'PY'
import json, os, re, resource, subprocess, sys, time
w, n, s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])

def timed(cmd, out):
    """Wall and CPU (user + system) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    with open(out, "w") as f:
        subprocess.run(cmd, stdout=f, stderr=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

sgw, sgc = timed([w + "/sgring", w + "/p.xml", str(n), str(int(s)), "--cfg=network/model:CM02",
                  "--cfg=network/crosstraffic:0"], w + "/sg.txt")
flw, flc = timed([w + "/fabriclab", "run", w + "/ring.yaml", "--json"], w + "/ring.json")
sg = float(re.search(r"sim_time_ms=([0-9.]+)", open(w + "/sg.txt").read()).group(1)) * 1e3
fl = json.load(open(w + "/ring.json"))["collective"]["time_us"]
ideal = 2 * (n - 1) / n * s / 450e9 * 1e6
# fabriclab's one alpha: each ring step stores and forwards one packet (4174 wire bytes).
model = ideal + 2 * (n - 1) * 4174 / (3668.5546875e9 / 8) * 1e6
print("N=%d: wall SimGrid %.2f s, fabriclab %.3f s: %.0fx; CPU %.2f s, %.3f s: %.0fx" % (n, sgw, flw, sgw / flw, sgc, flc, sgc / flc))
print("  simulated: SimGrid %.1f us (%+.2f %%), fabriclab %.1f us (%+.2f %%) of the alpha-beta ideal %.1f us;"
      " fabriclab with its per-step alpha %.1f us (%+.4f %%)"
      % (sg, (sg / ideal - 1) * 100, fl, (fl / ideal - 1) * 100, ideal, model, (fl / model - 1) * 100))
PY
	done
done
